package manifestmerge

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// oldCollapse is the decision's collapse as it was written before
// featuregate.TupleSet: three passes of "merge records of equal key, in
// order of first appearance", kept here as the reference the shared one
// must match record for record.
func oldCollapse(records []record) []record {
	pass := func(in []record, keyOf func(record) string, merge func(dst *record, src record)) []record {
		index := map[string]int{}
		var out []record
		for _, r := range in {
			k := keyOf(r)
			if i, ok := index[k]; ok {
				merge(&out[i], r)
				continue
			}
			index[k] = len(out)
			out = append(out, r)
		}
		return out
	}
	key := func(data int, parts ...string) string { return strconv.Itoa(data) + "|" + strings.Join(parts, "|") }
	unionInts := func(a, b []int) []int {
		set := map[int]bool{}
		for _, v := range append(append([]int(nil), a...), b...) {
			set[v] = true
		}
		return sortedInts(set)
	}
	unionStrings := func(a, b []string) []string {
		set := map[string]bool{}
		for _, v := range append(append([]string(nil), a...), b...) {
			set[v] = true
		}
		return sortedKeys(set)
	}
	groups := pass(records, func(r record) string { return key(r.data, ints(r.profiles), strings.Join(r.featureSets, ",")) },
		func(dst *record, src record) { dst.versions = unionInts(dst.versions, src.versions) })
	groups = pass(groups, func(r record) string { return key(r.data, ints(r.profiles), ints(r.versions)) },
		func(dst *record, src record) { dst.featureSets = unionStrings(dst.featureSets, src.featureSets) })
	return pass(groups, func(r record) string { return key(r.data, strings.Join(r.featureSets, ","), ints(r.versions)) },
		func(dst *record, src record) { dst.profiles = unionInts(dst.profiles, src.profiles) })
}

// TestCollapseMatchesOldCollapse draws the records of a CRD as the merge
// makes them (one a tuple, in any order, a few contents, now and then a
// tuple twice with its content) and compares the two collapses.
func TestCollapseMatchesOldCollapse(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 1))
	featureSets := []string{"CustomNoUpgrade", "Default", "DevPreviewNoUpgrade", "TechPreviewNoUpgrade"}
	for i := range 500 {
		contents := 1 + r.IntN(4)
		density := 0.2 + 0.8*r.Float64()
		nVersions := 1 + r.IntN(5)
		var records []record
		for v := 1; v <= nVersions; v++ {
			for p := range clusterProfiles {
				for _, fs := range featureSets {
					if r.Float64() > density {
						continue
					}
					rec := record{data: r.IntN(contents), versions: []int{v}, profiles: []int{p}, featureSets: []string{fs}}
					records = append(records, rec)
					if r.IntN(20) == 0 {
						records = append(records, rec)
					}
				}
			}
		}
		r.Shuffle(len(records), func(a, b int) { records[a], records[b] = records[b], records[a] })
		got, want := collapse(records), oldCollapse(records)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("input %d %+v:\ncollapse    = %+v\noldCollapse = %+v", i, records, got, want)
		}
	}
}
