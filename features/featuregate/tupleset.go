package featuregate

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// TupleSet is a set of tuples: the variants a CRD, a finding or a file
// stands for. The zero value is an empty set ready for Insert; the reading
// methods also accept a nil *TupleSet, as an empty set.
type TupleSet struct {
	tuples map[Tuple]struct{}
}

// NewTupleSet returns the set of ts.
func NewTupleSet(ts ...Tuple) *TupleSet {
	s := &TupleSet{}
	s.Insert(ts...)
	return s
}

// Insert adds ts to the set.
func (s *TupleSet) Insert(ts ...Tuple) {
	if s.tuples == nil {
		s.tuples = make(map[Tuple]struct{}, len(ts))
	}
	for _, t := range ts {
		s.tuples[t] = struct{}{}
	}
}

// Has reports whether t is in the set.
func (s *TupleSet) Has(t Tuple) bool {
	if s == nil {
		return false
	}
	_, ok := s.tuples[t]
	return ok
}

// Len is the number of tuples.
func (s *TupleSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.tuples)
}

// Equal reports whether both sets hold the same tuples.
func (s *TupleSet) Equal(o *TupleSet) bool {
	if s.Len() != o.Len() {
		return false
	}
	for t := range s.all() {
		if !o.Has(t) {
			return false
		}
	}
	return true
}

// Union returns a new set of the tuples in s or o.
func (s *TupleSet) Union(o *TupleSet) *TupleSet {
	out := &TupleSet{}
	for t := range s.all() {
		out.Insert(t)
	}
	for t := range o.all() {
		out.Insert(t)
	}
	return out
}

// Difference returns a new set of the tuples in s and not in o.
func (s *TupleSet) Difference(o *TupleSet) *TupleSet {
	out := &TupleSet{}
	for t := range s.all() {
		if !o.Has(t) {
			out.Insert(t)
		}
	}
	return out
}

// all yields the tuples in no particular order, for what does not show it.
func (s *TupleSet) all() iter.Seq[Tuple] {
	if s == nil {
		return func(func(Tuple) bool) {}
	}
	return maps.Keys(s.tuples)
}

// All yields the tuples in [Tuple.Compare] order, so that what is built
// from them does not depend on the order of insertion.
func (s *TupleSet) All() iter.Seq[Tuple] { return slices.Values(s.Sorted()) }

// Sorted returns the tuples in [Tuple.Compare] order.
func (s *TupleSet) Sorted() []Tuple {
	return slices.SortedFunc(s.all(), Tuple.Compare)
}

// Product is the cartesian product of its three lists, each ascending,
// without duplicates and not empty: the few tuples one generated file, or
// one line of a report, can name with an annotation per dimension.
type Product struct {
	Versions        []int
	ClusterProfiles []ClusterProfileName
	FeatureSets     []FeatureSetName
}

// Len is the number of tuples of the product.
func (p Product) Len() int {
	return len(p.Versions) * len(p.ClusterProfiles) * len(p.FeatureSets)
}

// First is the product's first tuple in [Tuple.Compare] order. The product
// must not be empty.
func (p Product) First() Tuple {
	return Tuple{Version: p.Versions[0], ClusterProfile: p.ClusterProfiles[0], FeatureSet: p.FeatureSets[0]}
}

// All yields the product's tuples in [Tuple.Compare] order.
func (p Product) All() iter.Seq[Tuple] {
	return func(yield func(Tuple) bool) {
		for _, v := range p.Versions {
			for _, prof := range p.ClusterProfiles {
				for _, fs := range p.FeatureSets {
					if !yield(Tuple{Version: v, ClusterProfile: prof, FeatureSet: fs}) {
						return
					}
				}
			}
		}
	}
}

// Collapse covers the set with disjoint products, as the merge stage
// chooses its files (docs/reference-rules.md, "Which files are written"):
// tuples that differ in version only are joined first, then products that
// differ in feature sets only, then those that differ in profiles only.
// The order matters: it decides which of two overlapping ways to cover an
// L-shaped set wins, and so the names of the files written. Products come
// in the order of their first tuples.
func (s *TupleSet) Collapse() []Product {
	if s.Len() == 0 {
		return nil
	}
	ps := make([]Product, 0, s.Len())
	for t := range s.All() {
		ps = append(ps, Product{Versions: []int{t.Version}, ClusterProfiles: []ClusterProfileName{t.ClusterProfile}, FeatureSets: []FeatureSetName{t.FeatureSet}})
	}
	for _, d := range []dimension{versions, featureSets, profiles} {
		ps = joinAlong(ps, d)
	}
	return ps
}

// dimension names one of a product's three lists.
type dimension int

const (
	versions dimension = iota
	profiles
	featureSets
)

// productKey spells a product's lists; the one being joined along is left
// empty, so that products agreeing on the other two have equal keys.
type productKey struct{ versions, profiles, featureSets string }

func (p Product) keyWithout(d dimension) productKey {
	var k productKey
	if d != versions {
		vs := make([]string, len(p.Versions))
		for i, v := range p.Versions {
			vs[i] = strconv.Itoa(v)
		}
		k.versions = strings.Join(vs, ",")
	}
	if d != profiles {
		k.profiles = joinNames(p.ClusterProfiles)
	}
	if d != featureSets {
		k.featureSets = joinNames(p.FeatureSets)
	}
	return k
}

func joinNames[T ~string](names []T) string {
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(string(n))
	}
	return b.String()
}

// joinAlong merges the products that differ only along d into one, placed
// where the first of them stood. The keys are taken before any merge, so
// the result is a partition of ps and does not depend on its order but for
// the order of the products.
func joinAlong(ps []Product, d dimension) []Product {
	index := map[productKey]int{}
	out := ps[:0:0]
	for _, p := range ps {
		k := p.keyWithout(d)
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, p)
			continue
		}
		q := &out[i]
		switch d {
		case versions:
			q.Versions = sortedUnion(q.Versions, p.Versions)
		case profiles:
			q.ClusterProfiles = sortedUnion(q.ClusterProfiles, p.ClusterProfiles)
		case featureSets:
			q.FeatureSets = sortedUnion(q.FeatureSets, p.FeatureSets)
		}
	}
	return out
}

// sortedUnion returns a new ascending list of the values of a and b.
func sortedUnion[T cmp.Ordered](a, b []T) []T {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// Labeled is a tuple with a label, such as the id of the CRD the merge
// produced for it.
type Labeled[L comparable] struct {
	Label L
	Tuple Tuple
}

// LabeledProduct is a product whose tuples all have the label.
type LabeledProduct[L comparable] struct {
	Label L
	Product
}

// CollapseLabeled collapses the tuples of each label on their own, as
// [TupleSet.Collapse] does, and returns the products of every label in the
// order in which their first tuples stand in in: the merge writes one
// file (or a few) per product, in the order of its tuples, and a label
// never shares a product with another.
func CollapseLabeled[L comparable](in []Labeled[L]) []LabeledProduct[L] {
	sets := map[L]*TupleSet{}
	var labels []L
	at := map[Labeled[L]]int{}
	for i, lt := range in {
		s, ok := sets[lt.Label]
		if !ok {
			s = &TupleSet{}
			sets[lt.Label] = s
			labels = append(labels, lt.Label)
		}
		s.Insert(lt.Tuple)
		if _, seen := at[lt]; !seen {
			at[lt] = i
		}
	}
	type placed struct {
		at int
		p  LabeledProduct[L]
	}
	var out []placed
	for _, l := range labels {
		for _, p := range sets[l].Collapse() {
			first := len(in)
			for t := range p.All() {
				first = min(first, at[Labeled[L]{l, t}])
			}
			out = append(out, placed{first, LabeledProduct[L]{l, p}})
		}
	}
	slices.SortStableFunc(out, func(a, b placed) int { return cmp.Compare(a.at, b.at) })
	ps := make([]LabeledProduct[L], len(out))
	for i, o := range out {
		ps[i] = o.p
	}
	return ps
}
