package crdvariant

import "github.com/gatedcrd/gatedcrd/features/payload"

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
