package crdvariant

import (
	"slices"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// Covers reports whether the file is the CRD of tuple t, whose enabled
// gates are t.Enabled (sorted; unused for CustomNoUpgrade, where every
// gate may be on). See the package documentation for the rules.
func (a Annotations) Covers(t featuregate.TupleGates) bool {
	if a.ProfilesRestricted && !slices.Contains(a.Profiles, t.ClusterProfile) {
		return false
	}
	if a.Versions != nil && !slices.Contains(a.Versions, t.Version) {
		return false
	}
	if a.FeatureSets != nil {
		return slices.Contains(a.FeatureSets, t.FeatureSet)
	}
	if t.Custom() {
		return true
	}
	for _, g := range a.Gates {
		if !t.IsEnabled(g) {
			return false
		}
	}
	return true
}
