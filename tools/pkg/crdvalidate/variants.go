package crdvalidate

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// variants are the ClusterProfiles, FeatureSets and major versions a set
// of merged files stands for, read from the annotations the merge gave
// them (features/crdvariant). An empty set means "every".
//
// They are per-dimension lists rather than a featuregate.TupleSet: the
// files' annotations say nothing about which combinations of them occur,
// and "every" is kept apart from the values seen.
type variants struct {
	profiles    map[featuregate.ClusterProfileName]bool
	featureSets map[featuregate.FeatureSetName]bool
	versions    map[int]bool
	// unrestricted records, per dimension, that a file had no annotation.
	anyProfile, anyFeatureSet, anyVersion bool
}

func newVariants() *variants {
	return &variants{
		profiles:    map[featuregate.ClusterProfileName]bool{},
		featureSets: map[featuregate.FeatureSetName]bool{},
		versions:    map[int]bool{},
	}
}

// add records the variants of one merged file. A file naming no rendered
// profile counts as every profile.
func (v *variants) add(a crdvariant.Annotations) {
	foundProfile := false
	for _, p := range a.Profiles {
		if p.IsRendered() {
			v.profiles[p] = true
			foundProfile = true
		}
	}
	v.anyProfile = v.anyProfile || !foundProfile
	v.anyFeatureSet = v.anyFeatureSet || a.FeatureSets == nil
	for _, fs := range a.FeatureSets {
		v.featureSets[fs] = true
	}
	v.anyVersion = v.anyVersion || a.Versions == nil
	for _, n := range a.Versions {
		v.versions[n] = true
	}
}

// String renders the variants compactly, e.g. "FeatureSet
// DevPreviewNoUpgrade,TechPreviewNoUpgrade; every ClusterProfile; every
// major version".
func (v *variants) String() string {
	everyProfile := v.anyProfile || len(v.profiles) == len(featuregate.ClusterProfiles())
	return strings.Join([]string{
		part(v.anyFeatureSet, names(v.featureSets), "FeatureSet"),
		part(everyProfile, names(v.profiles), "ClusterProfile"),
		part(v.anyVersion, versionNames(v.versions), "major version"),
	}, "; ")
}

func part(any bool, values []string, dimension string) string {
	if any || len(values) == 0 {
		return "every " + dimension
	}
	return dimension + " " + strings.Join(values, ",")
}

func names[T ~string](set map[T]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, string(k))
	}
	slices.Sort(out)
	return out
}

func versionNames(set map[int]bool) []string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(set)) {
		out = append(out, strconv.Itoa(n))
	}
	return out
}

// decodeVariants reads a merged file's variant annotations; a value that
// is not a string is read as printed.
func decodeVariants(obj map[string]any) (crdvariant.Annotations, error) {
	strs := map[string]string{}
	for k, v := range annotations(obj) {
		strs[k] = fmt.Sprint(v)
	}
	return crdvariant.Decode(strs)
}
