package features

import "github.com/gatedcrd/gatedcrd/features/featuregate"

// legacyFeatureGates may use legacyFeatureGateWithoutEnhancement. The list
// only shrinks: new gates must link an enhancement.
var legacyFeatureGates = []featuregate.FeatureGateName{
	"Example",
	"Example2",
}

// registry receives the declarations of this package while it initialises
// and is sealed by init, so that importers can only read it.
var registry = featuregate.NewRegistry(featuregate.WithLegacyFeatureGates(legacyFeatureGates...))

// init runs after every package-level declaration, hence after every gate
// has registered.
func init() {
	registry.Seal()
}

// Registry returns this repository's gates. The registry is sealed: its
// queries work, registering more gates fails.
func Registry() *featuregate.Registry {
	return registry
}

// FeatureSets answers [featuregate.Registry.FeatureSets] for this
// repository's gates.
func FeatureSets(version int, profile featuregate.ClusterProfileName, featureSet featuregate.FeatureSetName) featuregate.GateLists {
	return registry.FeatureSets(version, profile, featureSet)
}

// AllFeatureSets answers [featuregate.Registry.AllFeatureSets] for this
// repository's gates.
func AllFeatureSets() []featuregate.TupleGates {
	return registry.AllFeatureSets()
}

// Versions returns the version dimension of this repository's gates.
func Versions() []int {
	return registry.Versions()
}
