package features

import (
	"fmt"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// Short names used by the declarations.
const (
	ocpSpecific                         = featuregate.ProductScopeOCP
	kubernetesScope                     = featuregate.ProductScopeKubernetes
	legacyFeatureGateWithoutEnhancement = featuregate.LegacyEnhancementSentinel
)

// featureGateBuilder wraps the library builder with the lower-case method
// names of the declarations; it adds no behaviour except mustRegister.
type featureGateBuilder struct {
	b *featuregate.FeatureGateBuilder
}

// newFeatureGate starts a gate of this package's registry, disabled
// everywhere.
func newFeatureGate(name featuregate.FeatureGateName) *featureGateBuilder {
	return newFeatureGateIn(registry, name)
}

// newFeatureGateIn lets tests use the same declarations on a private registry.
func newFeatureGateIn(r *featuregate.Registry, name featuregate.FeatureGateName) *featureGateBuilder {
	return &featureGateBuilder{b: r.NewFeatureGate(name)}
}

func (f *featureGateBuilder) reportProblemsToComponent(component string) *featureGateBuilder {
	f.b.OwningComponent(component)
	return f
}

func (f *featureGateBuilder) contactPerson(person string) *featureGateBuilder {
	f.b.ContactPerson(person)
	return f
}

func (f *featureGateBuilder) productScope(scope featuregate.ProductScope) *featureGateBuilder {
	f.b.ProductScope(scope)
	return f
}

func (f *featureGateBuilder) enhancementPR(url string) *featureGateBuilder {
	f.b.EnhancementPR(url)
	return f
}

func (f *featureGateBuilder) enable(opts ...featuregate.EnablementOption) *featureGateBuilder {
	f.b.Enable(opts...)
	return f
}

func (f *featureGateBuilder) enableIn(featureSets ...featuregate.FeatureSetName) *featureGateBuilder {
	f.b.EnableIn(featureSets...)
	return f
}

func (f *featureGateBuilder) enableForClusterProfile(p featuregate.ClusterProfileName, featureSets ...featuregate.FeatureSetName) *featureGateBuilder {
	f.b.EnableForClusterProfile(p, featureSets...)
	return f
}

func (f *featureGateBuilder) register() (featuregate.FeatureGateName, error) {
	return f.b.Register()
}

// mustRegister registers the gate or panics naming it; see the package
// documentation for why a panic is acceptable here and nowhere else.
func (f *featureGateBuilder) mustRegister() featuregate.FeatureGateName {
	name, err := f.register()
	if err != nil {
		panic(fmt.Sprintf("invalid declaration of FeatureGate %q: %v", name, err))
	}
	return name
}

func inDefault() featuregate.EnablementOption { return featuregate.InDefault() }

func inTechPreviewNoUpgrade() featuregate.EnablementOption {
	return featuregate.InTechPreviewNoUpgrade()
}

func inDevPreviewNoUpgrade() featuregate.EnablementOption {
	return featuregate.InDevPreviewNoUpgrade()
}

func inCustomNoUpgrade() featuregate.EnablementOption { return featuregate.InCustomNoUpgrade() }

func inOKD() featuregate.EnablementOption { return featuregate.InOKD() }

func inClusterProfile(p featuregate.ClusterProfileName) featuregate.EnablementOption {
	return featuregate.InClusterProfile(p)
}

// inVersion takes the operator as a string ("=", ">", ">=", "<", "<=") so
// that declarations read inVersion(5, ">=").
func inVersion(v int, op featuregate.VersionOperator) featuregate.EnablementOption {
	return featuregate.InVersion(v, op)
}
