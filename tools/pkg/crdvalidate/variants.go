package crdvalidate

import (
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// variants are the ClusterProfiles, FeatureSets and major versions a set
// of merged files stands for, read from the annotations the merge gave
// them. A nil set means "every" (some file carries no restriction).
type variants struct {
	profiles, featureSets, versions map[string]bool
	// unrestricted records, per dimension, that a file had no annotation.
	anyProfile, anyFeatureSet, anyVersion bool
}

func newVariants() *variants {
	return &variants{profiles: map[string]bool{}, featureSets: map[string]bool{}, versions: map[string]bool{}}
}

// add records the variants of one merged file from its annotations.
func (v *variants) add(annotations map[string]any) {
	foundProfile := false
	for _, p := range featuregate.ClusterProfiles() {
		if annotations[p.AnnotationKey()] == "true" {
			v.profiles[string(p)] = true
			foundProfile = true
		}
	}
	v.anyProfile = v.anyProfile || !foundProfile
	addList := func(key string, set map[string]bool, any *bool) {
		s, _ := annotations[key].(string)
		if s == "" {
			*any = true
			return
		}
		for _, x := range strings.Split(s, ",") {
			set[x] = true
		}
	}
	addList(manifest.FeatureSetAnnotation, v.featureSets, &v.anyFeatureSet)
	addList(manifest.MajorVersionAnnotation, v.versions, &v.anyVersion)
}

// String renders the variants compactly, e.g. "FeatureSet
// TechPreviewNoUpgrade,DevPreviewNoUpgrade; every ClusterProfile; every
// major version".
func (v *variants) String() string {
	part := func(any bool, set map[string]bool, one, every string) string {
		if any || len(set) == 0 {
			return "every " + every
		}
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return one + " " + strings.Join(keys, ",")
	}
	everyProfile := v.anyProfile || len(v.profiles) == len(featuregate.ClusterProfiles())
	return strings.Join([]string{
		part(v.anyFeatureSet, v.featureSets, "FeatureSet", "FeatureSet"),
		part(everyProfile, v.profiles, "ClusterProfile", "ClusterProfile"),
		part(v.anyVersion, v.versions, "major version", "major version"),
	}, "; ")
}
