package manifestmerge

import (
	"slices"
	"sort"
	"strings"
)

// The rules of the pre-version eras of the reference (before February
// 2026, docs/reference-rules.md, "Pre-version trees") that differ from the current ones. The schema of their
// merge (x-kubernetes-validations keyed by rule) is ruleKeyedCRDType; the
// payload reader reads their directories by file name.

// noVersion is the version of every tuple of a pre-version payload: there
// are no major versions, and a manifest's major-version annotation (which
// that era did not know) is not checked.
const noVersion = 0

// combinationLess is the reference's less-function of that era: j is a
// combination file ("A+B") whose name contains i's name. It is no strict
// weak order, so the result depends on the sort algorithm and on the
// input order, which is directory (name) order.
func combinationLess(ms []*partialManifest) func(i, j int) bool {
	return func(i, j int) bool {
		return strings.Contains(ms[j].name, "+") && strings.Contains(ms[j].name, ms[i].name)
	}
}

// stableCombinationsLast is the order of the reference from October 2025:
// a stable sort of the name-ordered manifests with combinationLess.
func stableCombinationsLast(ms []*partialManifest) {
	sort.SliceStable(ms, combinationLess(ms))
}

// sortSliceCombinationsLast is the order of the reference before October
// 2025: sort.Slice of the name-ordered manifests with combinationLess.
func sortSliceCombinationsLast(ms []*partialManifest) {
	sort.Slice(ms, combinationLess(ms))
}

// decidePreVersion chooses the files of a CRD as the pre-version reference
// did, over the records of its tuples (one profile and one
// feature set each, in tuple order), comparing merged objects before any
// profile or feature-set annotation:
//
//  1. all equal and covering every feature set: one file without suffix,
//     annotated with the profiles among them, no feature-set annotation;
//  2. else, if each feature set's CRD is the same on every profile: one
//     file per feature set, -<FeatureSet>, annotated with that single
//     feature set and its profiles;
//  3. else, per profile: -<Profile> with that profile only when its CRD is
//     the same in all of its feature sets, otherwise one file per tuple,
//     -<Profile>-<FeatureSet>, with that profile and feature set.
//
// The release.openshift.io/feature-gate annotation is kept as any other.
// From 2026-02-18 (gatedOneFile) a CRD carrying it counts as covering
// every feature set in rule 1, so that it is one file installed by the
// gate alone.
func decidePreVersion(gatedOneFile bool) func(records []record, pl *payload, hasFeatureGate func(data int) bool) []outputFile {
	return func(records []record, pl *payload, hasFeatureGate func(data int) bool) []outputFile {
		return decidePreVersionRecords(records, pl, gatedOneFile && len(records) > 0 && hasFeatureGate(records[0].data))
	}
}

func decidePreVersionRecords(records []record, pl *payload, gated bool) []outputFile {
	if len(records) == 0 {
		return nil
	}
	file := func(data int, components []string, profiles []int, featureSets []string) outputFile {
		return outputFile{data: data, components: components, profiles: profiles, featureSets: featureSets, keepFeatureGate: true}
	}
	allEqual := func(rs []record) bool {
		return !slices.ContainsFunc(rs, func(r record) bool { return r.data != rs[0].data })
	}
	profilesOf := func(rs []record) []int {
		var ps []int
		for _, r := range rs {
			ps = append(ps, r.profiles...)
		}
		slices.Sort(ps)
		return slices.Compact(ps)
	}
	byFeatureSet := map[string][]record{}
	byProfile := map[int][]record{}
	for _, r := range records {
		for _, fs := range r.featureSets {
			byFeatureSet[fs] = append(byFeatureSet[fs], r)
		}
		for _, p := range r.profiles {
			byProfile[p] = append(byProfile[p], r)
		}
	}

	// Rule 1.
	coversAll := !slices.ContainsFunc(pl.featureSets, func(fs string) bool { return len(byFeatureSet[fs]) == 0 })
	if allEqual(records) && (coversAll || gated) {
		return []outputFile{file(records[0].data, nil, profilesOf(records), nil)}
	}
	// Rule 2.
	sameAcrossProfiles := true
	for _, rs := range byFeatureSet {
		sameAcrossProfiles = sameAcrossProfiles && allEqual(rs)
	}
	var out []outputFile
	if sameAcrossProfiles {
		for _, fs := range sortedKeys(byFeatureSet) {
			rs := byFeatureSet[fs]
			out = append(out, file(rs[0].data, []string{fs}, profilesOf(rs), []string{fs}))
		}
		return out
	}
	// Rule 3.
	for p := range clusterProfiles {
		rs := byProfile[p]
		switch {
		case len(rs) == 0:
		case allEqual(rs):
			out = append(out, file(rs[0].data, []string{string(clusterProfiles[p])}, []int{p}, nil))
		default:
			for _, r := range rs {
				fs := r.featureSets[0]
				out = append(out, file(r.data, []string{string(clusterProfiles[p]), fs}, []int{p}, []string{fs}))
			}
		}
	}
	return out
}
