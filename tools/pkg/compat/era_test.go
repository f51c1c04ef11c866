package compat

import (
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// TestAlignEras: a pre-version tree's version-0 tuples stand for every
// major version of a versioned tree, with the same CRD in each.
func TestAlignEras(t *testing.T) {
	tuple := func(v int) featuregate.TupleGates {
		return featuregate.TupleGates{Tuple: featuregate.Tuple{Version: v, ClusterProfile: "SelfManagedHA", FeatureSet: featuregate.Default}}
	}
	v := &variant{id: "a.yaml"}
	old := &side{tuples: []featuregate.TupleGates{tuple(0)}, crds: map[string]*crdSide{"w": {variants: map[featuregate.Tuple]*variant{tuple(0).Tuple: v}}}}
	cur := &side{tuples: []featuregate.TupleGates{tuple(4), tuple(5)}}
	alignEras(old, cur)
	if len(old.tuples) != 2 || old.tuples[0].Version != 4 || old.tuples[1].Version != 5 {
		t.Fatalf("tuples = %v", old.tuples)
	}
	for _, ver := range []int{4, 5} {
		if old.crds["w"].variants[tuple(ver).Tuple] != v {
			t.Errorf("version %d: the CRD is not the version-0 one", ver)
		}
		if _, ok := old.byKey[tuple(ver).Tuple]; !ok {
			t.Errorf("version %d: not indexed", ver)
		}
	}
	// Trees of one era are left alone.
	a, b := &side{tuples: []featuregate.TupleGates{tuple(4)}}, &side{tuples: []featuregate.TupleGates{tuple(5)}}
	alignEras(a, b)
	if a.tuples[0].Version != 4 || b.tuples[0].Version != 5 {
		t.Error("versioned trees changed")
	}
}
