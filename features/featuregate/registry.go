package featuregate

import (
	"cmp"
	"errors"
	"maps"
	"slices"
	"sync"
)

// Registry holds the gates of one repository. Create it with [NewRegistry],
// declare gates with [Registry.NewFeatureGate], then query it. It is safe
// for concurrent use; queries see every gate registered before they start.
//
// A Registry is a value owned by its caller, not a process-wide global, so that
// several repositories' gates, or tests' throw-away gates, never mix.
type Registry struct {
	legacyGates         map[FeatureGateName]bool
	enhancementPrefixes []string

	mu     sync.RWMutex
	gates  map[FeatureGateName]FeatureGate
	sealed bool
}

// RegistryOption configures a registry at creation.
type RegistryOption func(*Registry)

// WithLegacyFeatureGates allows the listed gates to use
// [LegacyEnhancementSentinel] instead of an enhancement URL. Repeated options
// add up.
func WithLegacyFeatureGates(names ...FeatureGateName) RegistryOption {
	return func(r *Registry) {
		for _, n := range names {
			r.legacyGates[n] = true
		}
	}
}

// WithEnhancementPrefixes replaces [DefaultEnhancementPrefixes] as the list of
// URL prefixes accepted for enhancement links.
func WithEnhancementPrefixes(prefixes ...string) RegistryOption {
	return func(r *Registry) {
		r.enhancementPrefixes = slices.Clone(prefixes)
	}
}

// NewRegistry returns an empty registry. By default no gate may use the legacy
// sentinel and enhancement URLs must start with one of
// [DefaultEnhancementPrefixes].
func NewRegistry(opts ...RegistryOption) *Registry {
	r := &Registry{
		legacyGates:         map[FeatureGateName]bool{},
		enhancementPrefixes: DefaultEnhancementPrefixes(),
		gates:               map[FeatureGateName]FeatureGate{},
	}
	for _, opt := range opts {
		opt(r)
	}
	return r
}

// NewFeatureGate starts the declaration of a gate that is disabled everywhere.
// The gate joins the registry only when [FeatureGateBuilder.Register] succeeds.
func (r *Registry) NewFeatureGate(name FeatureGateName) *FeatureGateBuilder {
	return &FeatureGateBuilder{registry: r, gate: FeatureGate{Name: name}}
}

// Seal makes every later Register fail. A repository that exposes its
// registry seals it once its own declarations are done, so that importers can
// read it but not add to it.
func (r *Registry) Seal() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sealed = true
}

func (r *Registry) add(g FeatureGate) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sealed {
		return errors.New("registry is sealed; gates must be declared before it is used")
	}
	if _, dup := r.gates[g.Name]; dup {
		return errors.New("already registered")
	}
	r.gates[g.Name] = g
	return nil
}

// Gate returns a copy of the named gate.
func (r *Registry) Gate(name FeatureGateName) (FeatureGate, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	g, ok := r.gates[name]
	if !ok {
		return FeatureGate{}, false
	}
	return g.clone(), true
}

// Gates returns copies of all gates, sorted by name.
func (r *Registry) Gates() []FeatureGate {
	r.mu.RLock()
	defer r.mu.RUnlock()
	gates := make([]FeatureGate, 0, len(r.gates))
	for _, g := range r.gates {
		gates = append(gates, g.clone())
	}
	slices.SortFunc(gates, func(a, b FeatureGate) int { return cmp.Compare(a.Name, b.Name) })
	return gates
}

// Versions returns the version dimension in ascending order: MinVersion to
// MaxVersion, plus every version named by an "=" condition of a registered
// gate, even outside that range.
func (r *Registry) Versions() []int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.versionsLocked()
}

func (r *Registry) versionsLocked() []int {
	var versions []int
	for v := MinVersion; v <= MaxVersion; v++ {
		versions = append(versions, v)
	}
	for _, g := range r.gates {
		for _, rule := range g.Rules {
			for _, v := range rule.Versions {
				versions = addSorted(versions, v)
			}
		}
	}
	return versions
}

// GateLists splits the registered gates in two for one tuple. Every gate is in
// exactly one list; both lists are sorted by name and are never nil.
type GateLists struct {
	Enabled  []FeatureGateName
	Disabled []FeatureGateName
}

// IsEnabled reports whether the gate is in l.Enabled, which must be sorted.
func (l GateLists) IsEnabled(name FeatureGateName) bool {
	_, found := slices.BinarySearch(l.Enabled, name)
	return found
}

// TupleGates is the answer for one tuple.
type TupleGates struct {
	Tuple
	GateLists
}

// FeatureSets computes which gates are enabled for the tuple: a gate is
// enabled when at least one of its rules matches (see [EnablementRule.Matches]),
// disabled otherwise. Any version, profile or feature set may be asked about,
// including CustomNoUpgrade and versions outside [Registry.Versions]; only
// rules mentioning them (or leaving that dimension open) can match.
func (r *Registry) FeatureSets(version int, profile ClusterProfileName, featureSet FeatureSetName) GateLists {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t := Tuple{Version: version, ClusterProfile: profile, FeatureSet: featureSet}
	return r.featureSetsLocked(slices.Sorted(maps.Keys(r.gates)), t)
}

// featureSetsLocked splits names, which must be sorted, for one tuple.
func (r *Registry) featureSetsLocked(names []FeatureGateName, t Tuple) GateLists {
	lists := GateLists{Enabled: []FeatureGateName{}, Disabled: []FeatureGateName{}}
	for _, name := range names {
		if r.gates[name].EnabledFor(t) {
			lists.Enabled = append(lists.Enabled, name)
		} else {
			lists.Disabled = append(lists.Disabled, name)
		}
	}
	return lists
}

// AllFeatureSets answers [Registry.FeatureSets] for every version of
// [Registry.Versions], every profile of [ClusterProfiles] and every feature set
// of [FixedFeatureSets], ordered by version, then profile, then feature set.
func (r *Registry) AllFeatureSets() []TupleGates {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := slices.Sorted(maps.Keys(r.gates))
	var all []TupleGates
	for _, v := range r.versionsLocked() {
		for _, p := range ClusterProfiles() {
			for _, fs := range FixedFeatureSets() {
				t := Tuple{Version: v, ClusterProfile: p, FeatureSet: fs}
				all = append(all, TupleGates{Tuple: t, GateLists: r.featureSetsLocked(names, t)})
			}
		}
	}
	return all
}
