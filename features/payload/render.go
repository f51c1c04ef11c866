package payload

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// File is one rendered file: a base name and its exact bytes.
type File struct {
	Name string
	Data []byte
}

// group is a run of consecutive versions of one (profile, feature set) that
// share the same gate lists.
type group struct {
	profile    featuregate.ClusterProfileName
	featureSet featuregate.FeatureSetName
	versions   []int
	lists      featuregate.GateLists
}

// Render turns the answers of [featuregate.Registry.AllFeatureSets] into the
// payload directory's files, sorted by name. payloadVersion is written to
// status.featureGates[0].version (the generator's default is "").
//
// For each (profile, feature set), versions are sorted and a new file starts
// whenever the gate lists change or the next version is not the previous one
// plus one: a file named "N-M" therefore always covers every version from N
// to M. Only rendered profiles and fixed feature sets are accepted, and each
// tuple at most once.
func Render(tuples []featuregate.TupleGates, payloadVersion string) ([]File, error) {
	groups, err := groupTuples(tuples)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, len(groups))
	for _, g := range groups {
		name := FileName(g.profile, g.featureSet, g.versions)
		data, err := MarshalIndentedJSON(manifestObject(g, payloadVersion))
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", name, err)
		}
		files = append(files, File{Name: name, Data: data})
	}
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Name, b.Name) })
	return files, nil
}

func groupTuples(tuples []featuregate.TupleGates) ([]group, error) {
	sorted := slices.Clone(tuples)
	slices.SortFunc(sorted, func(a, b featuregate.TupleGates) int {
		return cmp.Or(
			cmp.Compare(a.ClusterProfile, b.ClusterProfile),
			cmp.Compare(a.FeatureSet, b.FeatureSet),
			cmp.Compare(a.Version, b.Version))
	})
	var groups []group
	for i, t := range sorted {
		if !t.ClusterProfile.IsRendered() {
			return nil, fmt.Errorf("tuple %v: cluster profile %q is not rendered", t.Tuple, t.ClusterProfile)
		}
		if !t.FeatureSet.IsFixed() {
			return nil, fmt.Errorf("tuple %v: feature set %q is not a fixed feature set", t.Tuple, t.FeatureSet)
		}
		if i > 0 && sorted[i-1].Tuple == t.Tuple {
			return nil, fmt.Errorf("tuple %v given twice", t.Tuple)
		}
		if n := len(groups); n > 0 {
			last := &groups[n-1]
			if last.profile == t.ClusterProfile && last.featureSet == t.FeatureSet &&
				last.versions[len(last.versions)-1]+1 == t.Version && sameLists(last.lists, t.GateLists) {
				last.versions = append(last.versions, t.Version)
				continue
			}
		}
		groups = append(groups, group{
			profile:    t.ClusterProfile,
			featureSet: t.FeatureSet,
			versions:   []int{t.Version},
			lists:      t.GateLists,
		})
	}
	return groups, nil
}

func sameLists(a, b featuregate.GateLists) bool {
	return slices.Equal(a.Enabled, b.Enabled) && slices.Equal(a.Disabled, b.Disabled)
}

// manifestObject builds the generic map that is marshalled. A generic map,
// rather than typed structs, keeps key order (sorted) and field presence
// identical to the reference output.
func manifestObject(g group, payloadVersion string) map[string]any {
	spec := map[string]any{}
	if g.featureSet != featuregate.Default {
		spec["featureSet"] = g.featureSet.SpecValue()
	}
	return map[string]any{
		"apiVersion": "config.openshift.io/v1",
		"kind":       "FeatureGate",
		"metadata": map[string]any{
			"name": "cluster",
			"annotations": map[string]any{
				g.profile.AnnotationKey(): ProfileAnnotationValue,
				FeatureSetAnnotation:      string(g.featureSet),
				MajorVersionAnnotation:    FormatMajorVersions(g.versions),
			},
		},
		"spec": spec,
		"status": map[string]any{
			"featureGates": []any{
				map[string]any{
					"enabled":  nameList(g.lists.Enabled),
					"disabled": nameList(g.lists.Disabled),
					"version":  payloadVersion,
				},
			},
		},
	}
}

// nameList renders gates as [{"name": ...}] sorted by name. An empty list is
// written as [] on purpose: the reference writes null there, which readers
// must treat as empty anyway, and [] says what is meant. Golden files of this
// repository are generated with [].
func nameList(names []featuregate.FeatureGateName) []any {
	sorted := slices.Sorted(slices.Values(names))
	list := make([]any, 0, len(sorted))
	for _, n := range sorted {
		list = append(list, map[string]any{"name": string(n)})
	}
	return list
}
