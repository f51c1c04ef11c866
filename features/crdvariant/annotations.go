package crdvariant

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
)

// Annotation keys of a generated CRD manifest.
const (
	// IncludeAnnotationPrefix + <profile key suffix> names a ClusterProfile.
	IncludeAnnotationPrefix = "include.release.openshift.io/"
	// FeatureSetAnnotation and MajorVersionAnnotation mean the same as in a
	// payload FeatureGate manifest.
	FeatureSetAnnotation   = payload.FeatureSetAnnotation
	MajorVersionAnnotation = payload.MajorVersionAnnotation
	// FeatureGateAnnotation lists the gates a hand-written CRD needs.
	FeatureGateAnnotation = "release.openshift.io/feature-gate"
)

// Annotations are the variant annotations of one generated CRD manifest.
// A nil list means the file has no annotation for that dimension.
//
// They stay per-dimension lists, not a [featuregate.TupleSet]: a missing
// annotation means "every", which only the reader's own tuples can spell
// out, and the lists must round-trip as written.
type Annotations struct {
	// ProfilesRestricted is set when the file has some
	// include.release.openshift.io/ annotation, whatever its key or value:
	// it is then the CRD of Profiles only, otherwise of every profile.
	ProfilesRestricted bool
	// Profiles are the known profiles whose include annotation is "true",
	// in the order of their annotation keys.
	Profiles []featuregate.ClusterProfileName
	// Versions are the major versions, ascending.
	Versions []int
	// FeatureSets are the feature sets, as written.
	FeatureSets []featuregate.FeatureSetName
	// Gates are the gates of the release.openshift.io/feature-gate
	// annotation, as written.
	Gates []featuregate.FeatureGateName
}

// Decode reads the variant annotations among a file's annotations. A
// malformed list is an error naming the annotation; other annotations
// are ignored.
func Decode(annotations map[string]string) (Annotations, error) {
	var a Annotations
	for _, key := range slices.Sorted(maps.Keys(annotations)) {
		if !strings.HasPrefix(key, IncludeAnnotationPrefix) {
			continue
		}
		a.ProfilesRestricted = true
		if p, ok := featuregate.ClusterProfileForAnnotationKey(key); ok && annotations[key] == "true" {
			a.Profiles = append(a.Profiles, p)
		}
	}
	var err error
	if raw, ok := annotations[MajorVersionAnnotation]; ok {
		if a.Versions, err = payload.ParseMajorVersions(raw); err != nil {
			return Annotations{}, err
		}
	}
	if raw, ok := annotations[FeatureSetAnnotation]; ok {
		if a.FeatureSets, err = parseList[featuregate.FeatureSetName](FeatureSetAnnotation, raw); err != nil {
			return Annotations{}, err
		}
	}
	if raw, ok := annotations[FeatureGateAnnotation]; ok {
		if a.Gates, err = ParseGates(raw); err != nil {
			return Annotations{}, err
		}
	}
	return a, nil
}

// ParseGates reads the value of a release.openshift.io/feature-gate
// annotation: gate names separated by commas, blanks around them ignored.
func ParseGates(raw string) ([]featuregate.FeatureGateName, error) {
	return parseList[featuregate.FeatureGateName](FeatureGateAnnotation, raw)
}

// FormatGates writes the value of a release.openshift.io/feature-gate
// annotation.
func FormatGates(gates []featuregate.FeatureGateName) string {
	return JoinNames(gates)
}

func parseList[T ~string](key, raw string) ([]T, error) {
	var out []T
	for part := range strings.SplitSeq(raw, ",") {
		name := strings.TrimSpace(part)
		if name == "" {
			return nil, fmt.Errorf("annotation %s=%q: an empty name in the comma-separated list", key, raw)
		}
		out = append(out, T(name))
	}
	return out, nil
}

// JoinNames writes names as a comma-separated annotation value.
func JoinNames[T ~string](names []T) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	return strings.Join(parts, ",")
}
