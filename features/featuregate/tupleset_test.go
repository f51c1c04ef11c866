package featuregate

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func tup(v int, p ClusterProfileName, fs FeatureSetName) Tuple {
	return Tuple{Version: v, ClusterProfile: p, FeatureSet: fs}
}

func prod(vs []int, ps []ClusterProfileName, fss []FeatureSetName) Product {
	return Product{Versions: vs, ClusterProfiles: ps, FeatureSets: fss}
}

var (
	hs  = []ClusterProfileName{Hypershift, SelfManagedHA}
	h   = []ClusterProfileName{Hypershift}
	sha = []ClusterProfileName{SelfManagedHA}
)

func TestTupleSetCollapse(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []Tuple
		want []Product
	}{
		{name: "empty"},
		{
			name: "one tuple",
			in:   []Tuple{tup(5, Hypershift, Default)},
			want: []Product{prod([]int{5}, h, []FeatureSetName{Default})},
		},
		{
			name: "a whole product",
			in: []Tuple{
				tup(6, SelfManagedHA, OKD), tup(5, Hypershift, Default), tup(6, Hypershift, Default), tup(5, SelfManagedHA, OKD),
				tup(5, SelfManagedHA, Default), tup(6, SelfManagedHA, Default), tup(5, Hypershift, OKD), tup(6, Hypershift, OKD),
			},
			want: []Product{prod([]int{5, 6}, hs, []FeatureSetName{Default, OKD})},
		},
		{
			// Profiles first would give {5}×both and {6}×Hypershift.
			name: "versions before profiles",
			in:   []Tuple{tup(5, Hypershift, Default), tup(6, Hypershift, Default), tup(5, SelfManagedHA, Default)},
			want: []Product{
				prod([]int{5, 6}, h, []FeatureSetName{Default}),
				prod([]int{5}, sha, []FeatureSetName{Default}),
			},
		},
		{
			// Profiles first would give both×Default and
			// Hypershift×OKD.
			name: "feature sets before profiles",
			in:   []Tuple{tup(5, Hypershift, Default), tup(5, Hypershift, OKD), tup(5, SelfManagedHA, Default)},
			want: []Product{
				prod([]int{5}, h, []FeatureSetName{Default, OKD}),
				prod([]int{5}, sha, []FeatureSetName{Default}),
			},
		},
		{
			// Feature sets first would give 5×{Default,OKD} and
			// 6×Default.
			name: "versions before feature sets",
			in:   []Tuple{tup(5, Hypershift, Default), tup(6, Hypershift, Default), tup(5, Hypershift, OKD)},
			want: []Product{
				prod([]int{5, 6}, h, []FeatureSetName{Default}),
				prod([]int{5}, h, []FeatureSetName{OKD}),
			},
		},
		{
			// The profiles join only once versions and feature sets
			// agree: gaps in versions stay in the list.
			name: "disjoint versions join",
			in:   []Tuple{tup(3, SelfManagedHA, Default), tup(7, SelfManagedHA, Default), tup(3, Hypershift, Default), tup(7, Hypershift, Default)},
			want: []Product{prod([]int{3, 7}, hs, []FeatureSetName{Default})},
		},
		{
			name: "in order of first tuples",
			in:   []Tuple{tup(6, Hypershift, Default), tup(5, SelfManagedHA, OKD), tup(5, SelfManagedHA, TechPreviewNoUpgrade)},
			want: []Product{
				prod([]int{5}, sha, []FeatureSetName{OKD, TechPreviewNoUpgrade}),
				prod([]int{6}, h, []FeatureSetName{Default}),
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := NewTupleSet(c.in...).Collapse()
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Collapse() = %v, want %v", got, c.want)
			}
		})
	}
}

func TestProduct(t *testing.T) {
	p := prod([]int{5, 6}, hs, []FeatureSetName{Default})
	if p.Len() != 4 {
		t.Errorf("Len() = %d, want 4", p.Len())
	}
	if got, want := p.First(), tup(5, Hypershift, Default); got != want {
		t.Errorf("First() = %v, want %v", got, want)
	}
	want := []Tuple{tup(5, Hypershift, Default), tup(5, SelfManagedHA, Default), tup(6, Hypershift, Default), tup(6, SelfManagedHA, Default)}
	if got := slices.Collect(p.All()); !slices.Equal(got, want) {
		t.Errorf("All() = %v, want %v", got, want)
	}
	for range p.All() {
		break // All stops when asked to
	}
}

func TestTupleSetOperations(t *testing.T) {
	a, b, c := tup(5, Hypershift, Default), tup(5, SelfManagedHA, Default), tup(6, Hypershift, OKD)
	var zero TupleSet
	if zero.Len() != 0 || zero.Has(a) || zero.Collapse() != nil || len(zero.Sorted()) != 0 {
		t.Errorf("the zero TupleSet is not empty")
	}
	var none *TupleSet
	if none.Len() != 0 || none.Has(a) || !none.Equal(&zero) || none.Union(none).Len() != 0 || none.Difference(none).Len() != 0 {
		t.Errorf("a nil *TupleSet is not empty")
	}
	zero.Insert(c, a)
	zero.Insert(a)
	if zero.Len() != 2 || !zero.Has(a) || zero.Has(b) {
		t.Errorf("after Insert(c, a), Insert(a): Len() = %d, Has(a) = %v, Has(b) = %v", zero.Len(), zero.Has(a), zero.Has(b))
	}
	for _, o := range []struct {
		name      string
		got, want *TupleSet
	}{
		{"union", NewTupleSet(a, b).Union(NewTupleSet(b, c)), NewTupleSet(a, b, c)},
		{"union with empty", NewTupleSet(a).Union(nil), NewTupleSet(a)},
		{"difference", NewTupleSet(a, b).Difference(NewTupleSet(b, c)), NewTupleSet(a)},
		{"difference of itself", NewTupleSet(a, b).Difference(NewTupleSet(a, b)), NewTupleSet()},
		{"difference with empty", NewTupleSet(a, b).Difference(&TupleSet{}), NewTupleSet(b, a)},
	} {
		if !o.got.Equal(o.want) {
			t.Errorf("%s: got %v, want %v", o.name, o.got.Sorted(), o.want.Sorted())
		}
	}
	if NewTupleSet(a, b).Equal(NewTupleSet(a, c)) {
		t.Errorf("{a, b} equals {a, c}")
	}
	if got, want := NewTupleSet(c, b, a).Sorted(), []Tuple{a, b, c}; !slices.Equal(got, want) {
		t.Errorf("Sorted() = %v, want %v", got, want)
	}
	if got, want := slices.Collect(NewTupleSet(c, b, a).All()), []Tuple{a, b, c}; !slices.Equal(got, want) {
		t.Errorf("All() = %v, want %v", got, want)
	}
}

// randomTupleSet draws a set from a small space, so that products of
// several tuples, and L shapes, are common.
func randomTupleSet(r *rand.Rand) *TupleSet {
	s := &TupleSet{}
	density := r.Float64()
	for v := 1; v <= 4; v++ {
		for _, p := range []ClusterProfileName{Hypershift, SelfManagedHA} {
			for _, fs := range []FeatureSetName{CustomNoUpgrade, Default, OKD} {
				if r.Float64() < density {
					s.Insert(tup(v, p, fs))
				}
			}
		}
	}
	return s
}

func TestTupleSetCollapseProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 3))
	for i := range 2000 {
		s := randomTupleSet(r)
		ps := s.Collapse()
		covered := &TupleSet{}
		n := 0
		for j, p := range ps {
			if !slices.IsSorted(p.Versions) || !slices.IsSorted(p.ClusterProfiles) || !slices.IsSorted(p.FeatureSets) || p.Len() == 0 {
				t.Fatalf("set %d: product %v is empty or not sorted", i, p)
			}
			if j > 0 && ps[j-1].First().Compare(p.First()) >= 0 {
				t.Fatalf("set %d: products %v and %v are not in order of their first tuples", i, ps[j-1], p)
			}
			for tu := range p.All() {
				if covered.Has(tu) {
					t.Fatalf("set %d (%v): %v is in two products of %v", i, s.Sorted(), tu, ps)
				}
				covered.Insert(tu)
			}
			n += p.Len()
		}
		if !covered.Equal(s) || n != s.Len() {
			t.Fatalf("set %d: the products %v cover %v, want %v", i, ps, covered.Sorted(), s.Sorted())
		}
	}
}

func TestTupleSetLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 4))
	for i := range 1000 {
		a, b := randomTupleSet(r), randomTupleSet(r)
		u, d := a.Union(b), a.Difference(b)
		for _, law := range []struct {
			name string
			ok   bool
		}{
			{"a∪b = b∪a", u.Equal(b.Union(a))},
			{"a∪a = a", a.Union(a).Equal(a)},
			{"a\\a = ∅", a.Difference(a).Len() == 0},
			{"(a∪b)\\b = a\\b", u.Difference(b).Equal(d)},
			{"|a∪b| = |a\\b| + |b|", u.Len() == d.Len()+b.Len()},
			{"(a\\b)∪(a\\(a\\b)) = a", d.Union(a.Difference(d)).Equal(a)},
			{"a\\b has nothing of b", !slices.ContainsFunc(d.Sorted(), b.Has)},
			{"a∪b has a and b", !slices.ContainsFunc(slices.Concat(a.Sorted(), b.Sorted()), func(t Tuple) bool { return !u.Has(t) })},
			{"a∪b has nothing else", !slices.ContainsFunc(u.Sorted(), func(t Tuple) bool { return !a.Has(t) && !b.Has(t) })},
		} {
			if !law.ok {
				t.Fatalf("pair %d (%v, %v): %s does not hold", i, a.Sorted(), b.Sorted(), law.name)
			}
		}
	}
}

func TestCollapseLabeled(t *testing.T) {
	in := []Labeled[string]{
		{"b", tup(6, Hypershift, Default)},
		{"a", tup(5, SelfManagedHA, Default)},
		{"b", tup(5, Hypershift, Default)},
		{"a", tup(5, Hypershift, OKD)},
		{"a", tup(5, SelfManagedHA, OKD)},
		{"a", tup(5, SelfManagedHA, Default)}, // again: changes nothing
	}
	want := []LabeledProduct[string]{
		{"b", prod([]int{5, 6}, h, []FeatureSetName{Default})},
		{"a", prod([]int{5}, sha, []FeatureSetName{Default, OKD})},
		{"a", prod([]int{5}, h, []FeatureSetName{OKD})},
	}
	got := CollapseLabeled(in)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CollapseLabeled() = %v, want %v", got, want)
	}
	if got := CollapseLabeled[string](nil); len(got) != 0 {
		t.Errorf("CollapseLabeled(nil) = %v", got)
	}
}

func ExampleTupleSet_Collapse() {
	s := NewTupleSet(
		Tuple{Version: 5, ClusterProfile: Hypershift, FeatureSet: Default},
		Tuple{Version: 6, ClusterProfile: Hypershift, FeatureSet: Default},
		Tuple{Version: 5, ClusterProfile: SelfManagedHA, FeatureSet: Default},
	)
	for _, p := range s.Collapse() {
		fmt.Println(p.FeatureSets, "on", p.ClusterProfiles, "in", p.Versions)
	}
	// Output:
	// [Default] on [Hypershift] in [5 6]
	// [Default] on [SelfManagedHA] in [5]
}
