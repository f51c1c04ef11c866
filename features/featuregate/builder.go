package featuregate

import (
	"errors"
	"fmt"
	"slices"
)

// FeatureGate is a registered gate: its metadata and its enablement rules. Values
// returned by a [Registry] are copies; changing them does not change the
// registry.
type FeatureGate struct {
	Name FeatureGateName
	// OwningComponent is the component (as known to the issue tracker) that
	// owns the gate and receives its bug reports.
	OwningComponent string
	// ContactPerson is the person or team to ask about the gate.
	ContactPerson string
	ProductScope  ProductScope
	// EnhancementPR is the URL of the enhancement that introduced the gate,
	// or [LegacyEnhancementSentinel] for allow-listed legacy gates.
	EnhancementPR string
	// Rules are the enablement rules in declaration order. A gate without
	// rules is disabled everywhere.
	Rules []EnablementRule
}

func (g FeatureGate) clone() FeatureGate {
	rules := make([]EnablementRule, len(g.Rules))
	for i, r := range g.Rules {
		rules[i] = r.clone()
	}
	g.Rules = rules
	return g
}

// EnabledFor reports whether any rule of g matches t.
func (g FeatureGate) EnabledFor(t Tuple) bool {
	return slices.ContainsFunc(g.Rules, func(r EnablementRule) bool { return r.Matches(t) })
}

// FeatureGateBuilder declares one gate. It is obtained from
// [Registry.NewFeatureGate]; every setter returns the builder so that calls
// chain, and nothing is visible in the registry before [FeatureGateBuilder.Register].
//
// A builder is not safe for concurrent use.
type FeatureGateBuilder struct {
	registry *Registry
	gate     FeatureGate
	// errs holds option mistakes (unknown operator, unknown profile...) until
	// Register reports them together with the metadata checks.
	errs []error
}

// OwningComponent records the component that owns the gate.
func (b *FeatureGateBuilder) OwningComponent(component string) *FeatureGateBuilder {
	b.gate.OwningComponent = component
	return b
}

// ContactPerson records who to ask about the gate.
func (b *FeatureGateBuilder) ContactPerson(person string) *FeatureGateBuilder {
	b.gate.ContactPerson = person
	return b
}

// ProductScope records whether the gate is OpenShift- or Kubernetes-specific.
func (b *FeatureGateBuilder) ProductScope(scope ProductScope) *FeatureGateBuilder {
	b.gate.ProductScope = scope
	return b
}

// EnhancementPR records the enhancement URL, or [LegacyEnhancementSentinel].
// The value is checked by Register (see [Registry] for the rules).
func (b *FeatureGateBuilder) EnhancementPR(url string) *FeatureGateBuilder {
	b.gate.EnhancementPR = url
	return b
}

// Enable adds one enablement rule built from opts. Calling Enable several
// times adds several rules; the gate is on wherever at least one matches.
// Enable without any feature-set option adds a rule that never matches.
func (b *FeatureGateBuilder) Enable(opts ...EnablementOption) *FeatureGateBuilder {
	var d ruleDraft
	for _, opt := range opts {
		opt(&d)
	}
	b.errs = append(b.errs, d.errs...)
	b.gate.Rules = append(b.gate.Rules, d.rule)
	return b
}

// EnableIn is the older spelling of Enable with only feature-set options: the
// gate is on in the given feature sets for every profile and version.
func (b *FeatureGateBuilder) EnableIn(featureSets ...FeatureSetName) *FeatureGateBuilder {
	return b.Enable(featureSetOptions(featureSets)...)
}

// EnableForClusterProfile is the older spelling of
// Enable(InClusterProfile(p), <feature sets>...).
func (b *FeatureGateBuilder) EnableForClusterProfile(p ClusterProfileName, featureSets ...FeatureSetName) *FeatureGateBuilder {
	return b.Enable(append([]EnablementOption{InClusterProfile(p)}, featureSetOptions(featureSets)...)...)
}

func featureSetOptions(featureSets []FeatureSetName) []EnablementOption {
	opts := make([]EnablementOption, len(featureSets))
	for i, fs := range featureSets {
		opts[i] = inFeatureSet(fs)
	}
	return opts
}

// Register validates the gate and adds it to the registry. It returns the
// gate's name, so that declarations can keep it in a variable, and an error
// listing every problem found, each naming the gate. On error nothing is
// registered. Problems are:
//
//   - an empty name, owning component or contact person, or a product scope
//     other than [ProductScopeOCP] and [ProductScopeKubernetes];
//   - an enhancement value that is neither an allowed legacy sentinel nor a
//     URL with an accepted prefix (see [NewRegistry]);
//   - an invalid enablement option (unknown feature set or profile, bad
//     version condition);
//   - a name already registered;
//   - a sealed registry (see [Registry.Seal]).
func (b *FeatureGateBuilder) Register() (FeatureGateName, error) {
	g := b.gate
	var errs []error
	if g.Name == "" {
		errs = append(errs, errors.New("name is empty"))
	}
	if g.OwningComponent == "" {
		errs = append(errs, errors.New("owning component is not set"))
	}
	if g.ContactPerson == "" {
		errs = append(errs, errors.New("contact person is not set"))
	}
	switch g.ProductScope {
	case ProductScopeOCP, ProductScopeKubernetes:
	case "":
		errs = append(errs, errors.New("product scope is not set"))
	default:
		errs = append(errs, fmt.Errorf("product scope %q is neither %q nor %q", g.ProductScope, ProductScopeOCP, ProductScopeKubernetes))
	}
	if err := b.registry.checkEnhancement(g.Name, g.EnhancementPR); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, b.errs...)
	if len(errs) == 0 {
		if err := b.registry.add(g.clone()); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		for i, err := range errs {
			errs[i] = fmt.Errorf("feature gate %q: %w", g.Name, err)
		}
		return g.Name, errors.Join(errs...)
	}
	return g.Name, nil
}
