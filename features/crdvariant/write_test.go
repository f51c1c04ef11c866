package crdvariant

import (
	"fmt"
	"reflect"
	"testing"

	fg "github.com/gatedcrd/gatedcrd/features/featuregate"
)

// TestWriteThenDecode checks that what the merge writes reads back as
// written, and that an empty Gates removes a gate annotation.
func TestWriteThenDecode(t *testing.T) {
	for _, a := range []Annotations{
		{},
		{ProfilesRestricted: true, Profiles: []fg.ClusterProfileName{fg.Hypershift}},
		{Versions: []int{4, 6}, FeatureSets: []fg.FeatureSetName{fg.Default, fg.OKD}},
		{Gates: []fg.FeatureGateName{"A", "B"}},
	} {
		written := map[string]any{FeatureGateAnnotation: "Stale", "other": "kept"}
		a.Write(written)
		strs := map[string]string{}
		for k, v := range written {
			strs[k] = fmt.Sprint(v)
		}
		if strs["other"] != "kept" {
			t.Errorf("%+v: Write changed another annotation", a)
		}
		got, err := Decode(strs)
		if err != nil {
			t.Fatalf("%+v: %v", a, err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("Write then Decode: got %+v, want %+v (written %v)", got, a, written)
		}
	}
}
