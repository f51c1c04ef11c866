package compat

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// TupleSet is a set of (major version, ClusterProfile, FeatureSet) tuples,
// printed compactly as a few products "feature sets on profiles, versions".
// It is a featuregate.TupleSet that also knows how many tuples the tree
// has, to say "every tuple".
type TupleSet struct {
	tuples featuregate.TupleSet
	total  int
}

// TupleGroup is one product of a TupleSet's compact form.
type TupleGroup struct {
	FeatureSets []string `json:"featureSets"`
	Profiles    []string `json:"profiles"`
	Versions    []int    `json:"versions"`
}

func newTupleSet(total int) *TupleSet { return &TupleSet{total: total} }

func (s *TupleSet) add(t featuregate.TupleGates) { s.tuples.Insert(t.Tuple) }

// Len is the number of tuples.
func (s *TupleSet) Len() int { return s.tuples.Len() }

// Groups collapses the set into products as the merge stage chooses its
// files ([featuregate.TupleSet.Collapse]), sorted by their text.
func (s *TupleSet) Groups() []TupleGroup {
	ps := s.tuples.Collapse()
	out := make([]TupleGroup, len(ps))
	for i, p := range ps {
		out[i] = TupleGroup{FeatureSets: names(p.FeatureSets), Profiles: names(p.ClusterProfiles), Versions: p.Versions}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].String() < out[b].String() })
	return out
}

func names[T ~string](ns []T) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}

func (g TupleGroup) String() string {
	return strings.Join(g.FeatureSets, ",") + " on " + strings.Join(g.Profiles, ",") + ", major version " + fgpayload.VersionRange(g.Versions)
}

func (s *TupleSet) String() string {
	if s.total > 0 && s.tuples.Len() == s.total {
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
	}{s.tuples.Len(), s.Groups()})
}
