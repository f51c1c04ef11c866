package crdvariant

import (
	"reflect"
	"strings"
	"testing"

	fg "github.com/gatedcrd/gatedcrd/features/featuregate"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		name string
		ann  map[string]string
		want Annotations
	}{
		{"no annotations", nil, Annotations{}},
		{"unrelated annotations", map[string]string{"api-approved.openshift.io": "x"}, Annotations{}},
		{"profiles in key order", map[string]string{
			fg.SelfManagedHAAnnotationKey: "true", fg.HypershiftAnnotationKey: "true",
		}, Annotations{ProfilesRestricted: true, Profiles: []fg.ClusterProfileName{fg.Hypershift, fg.SelfManagedHA}}},
		{"a profile not true restricts to none", map[string]string{fg.HypershiftAnnotationKey: "false"},
			Annotations{ProfilesRestricted: true}},
		{"an unknown include key restricts", map[string]string{IncludeAnnotationPrefix + "elsewhere": "true"},
			Annotations{ProfilesRestricted: true}},
		{"single node is known", map[string]string{fg.SingleNodeAnnotationKey: "true"},
			Annotations{ProfilesRestricted: true, Profiles: []fg.ClusterProfileName{fg.SingleNode}}},
		{"lists", map[string]string{
			MajorVersionAnnotation: "6,4,5", FeatureSetAnnotation: "TechPreviewNoUpgrade,CustomNoUpgrade",
			FeatureGateAnnotation: "A, B",
		}, Annotations{
			Versions:    []int{4, 5, 6},
			FeatureSets: []fg.FeatureSetName{fg.TechPreviewNoUpgrade, fg.CustomNoUpgrade},
			Gates:       []fg.FeatureGateName{"A", "B"},
		}},
	}
	for _, c := range cases {
		got, err := Decode(c.ann)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestDecodeErrorsNameTheAnnotation(t *testing.T) {
	cases := []struct {
		ann  map[string]string
		want string
	}{
		{map[string]string{MajorVersionAnnotation: "4,x"}, `annotation release.openshift.io/major-version="4,x": "x" is not a positive integer`},
		{map[string]string{MajorVersionAnnotation: "4,4"}, `annotation release.openshift.io/major-version="4,4" lists a version twice`},
		{map[string]string{FeatureSetAnnotation: "Default,"}, `annotation release.openshift.io/feature-set="Default,": an empty name`},
		{map[string]string{FeatureGateAnnotation: ""}, `annotation release.openshift.io/feature-gate="": an empty name`},
	}
	for _, c := range cases {
		_, err := Decode(c.ann)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want it to contain %q", c.ann, err, c.want)
		}
	}
}

func TestGatesRoundTrip(t *testing.T) {
	gates := []fg.FeatureGateName{"B", "A"}
	got, err := ParseGates(FormatGates(gates))
	if err != nil || !reflect.DeepEqual(got, gates) {
		t.Errorf("ParseGates(FormatGates(%v)) = %v, %v", gates, got, err)
	}
}
