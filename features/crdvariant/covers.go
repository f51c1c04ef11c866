package crdvariant

import (
	"slices"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
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

// Write sets the variant annotations of a into a file's annotations:
// "true" for each of Profiles, and the version, feature-set and gate
// lists when not empty. An empty Gates removes the gate annotation, which
// a merged file only keeps when a says so.
func (a Annotations) Write(annotations map[string]any) {
	for _, p := range a.Profiles {
		annotations[p.AnnotationKey()] = "true"
	}
	if len(a.Versions) > 0 {
		annotations[MajorVersionAnnotation] = payload.FormatMajorVersions(a.Versions)
	}
	if len(a.FeatureSets) > 0 {
		annotations[FeatureSetAnnotation] = JoinNames(a.FeatureSets)
	}
	if len(a.Gates) > 0 {
		annotations[FeatureGateAnnotation] = FormatGates(a.Gates)
	} else {
		delete(annotations, FeatureGateAnnotation)
	}
}
