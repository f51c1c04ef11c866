package compat

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// TupleSet is a set of (major version, ClusterProfile, FeatureSet) tuples,
// printed compactly as a few products "feature sets on profiles, versions".
type TupleSet struct {
	tuples map[featuregate.Tuple]bool
	total  int // the number of tuples in the tree, to say "every tuple"
}

// TupleGroup is one product of a TupleSet's compact form.
type TupleGroup struct {
	FeatureSets []string `json:"featureSets"`
	Profiles    []string `json:"profiles"`
	Versions    []int    `json:"versions"`
}

func newTupleSet(total int) *TupleSet {
	return &TupleSet{tuples: map[featuregate.Tuple]bool{}, total: total}
}

func (s *TupleSet) add(t featuregate.TupleGates) { s.tuples[t.Tuple] = true }

// Len is the number of tuples.
func (s *TupleSet) Len() int { return len(s.tuples) }

// Groups collapses the set into products: versions first, then feature
// sets, then profiles, like the merge stage's file decision.
func (s *TupleSet) Groups() []TupleGroup {
	type rec struct {
		fs, prof []string
		vs       []int
	}
	var recs []rec
	for t := range s.tuples {
		recs = append(recs, rec{fs: []string{string(t.FeatureSet)}, prof: []string{string(t.ClusterProfile)}, vs: []int{t.Version}})
	}
	merge := func(in []rec, key func(rec) string, join func(dst *rec, src rec)) []rec {
		index := map[string]int{}
		var out []rec
		for _, r := range in {
			k := key(r)
			if i, ok := index[k]; ok {
				join(&out[i], r)
				continue
			}
			index[k] = len(out)
			out = append(out, r)
		}
		return out
	}
	j := func(ss []string) string { return strings.Join(ss, ",") }
	recs = merge(recs, func(r rec) string { return j(r.fs) + "|" + j(r.prof) },
		func(d *rec, s rec) { d.vs = union(d.vs, s.vs) })
	recs = merge(recs, func(r rec) string { return j(r.prof) + "|" + fmt.Sprint(r.vs) },
		func(d *rec, s rec) { d.fs = union(d.fs, s.fs) })
	recs = merge(recs, func(r rec) string { return j(r.fs) + "|" + fmt.Sprint(r.vs) },
		func(d *rec, s rec) { d.prof = union(d.prof, s.prof) })
	out := make([]TupleGroup, len(recs))
	for i, r := range recs {
		out[i] = TupleGroup{FeatureSets: r.fs, Profiles: r.prof, Versions: r.vs}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].String() < out[b].String() })
	return out
}

func (g TupleGroup) String() string {
	return strings.Join(g.FeatureSets, ",") + " on " + strings.Join(g.Profiles, ",") + ", major version " + fgpayload.VersionRange(g.Versions)
}

func (s *TupleSet) String() string {
	if s.total > 0 && len(s.tuples) == s.total {
		return "every tuple (" + strconv.Itoa(s.total) + ")"
	}
	var parts []string
	for _, g := range s.Groups() {
		parts = append(parts, g.String())
	}
	return strings.Join(parts, "; ")
}

// MarshalJSON writes the count and the compact groups.
func (s *TupleSet) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Count  int          `json:"count"`
		Groups []TupleGroup `json:"groups"`
	}{len(s.tuples), s.Groups()})
}

// union returns the sorted union of two sorted-or-not lists.
func union[T cmp.Ordered](a, b []T) []T {
	out := append(append([]T(nil), a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
