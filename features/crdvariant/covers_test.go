package crdvariant

import (
	"testing"

	fg "github.com/gatedcrd/gatedcrd/features/featuregate"
)

func tupleGates(version int, p fg.ClusterProfileName, fs fg.FeatureSetName, enabled ...fg.FeatureGateName) fg.TupleGates {
	return fg.TupleGates{
		Tuple:     fg.Tuple{Version: version, ClusterProfile: p, FeatureSet: fs},
		GateLists: fg.GateLists{Enabled: enabled},
	}
}

func TestCovers(t *testing.T) {
	def := tupleGates(5, fg.SelfManagedHA, fg.Default)
	tp := tupleGates(5, fg.SelfManagedHA, fg.TechPreviewNoUpgrade, "A", "B")
	custom := tupleGates(5, fg.SelfManagedHA, fg.CustomNoUpgrade)
	hyper := tupleGates(4, fg.Hypershift, fg.Default)
	cases := []struct {
		name string
		a    Annotations
		t    fg.TupleGates
		want bool
	}{
		{"no annotations", Annotations{}, def, true},
		{"profile named", Annotations{ProfilesRestricted: true, Profiles: []fg.ClusterProfileName{fg.SelfManagedHA}}, def, true},
		{"other profile named", Annotations{ProfilesRestricted: true, Profiles: []fg.ClusterProfileName{fg.SelfManagedHA}}, hyper, false},
		{"restricted to none", Annotations{ProfilesRestricted: true}, def, false},
		{"version listed", Annotations{Versions: []int{4, 5}}, def, true},
		{"version not listed", Annotations{Versions: []int{4}}, def, false},
		{"feature set listed", Annotations{FeatureSets: []fg.FeatureSetName{fg.Default}}, def, true},
		{"feature set not listed", Annotations{FeatureSets: []fg.FeatureSetName{fg.TechPreviewNoUpgrade}}, def, false},
		{"gates on", Annotations{Gates: []fg.FeatureGateName{"A", "B"}}, tp, true},
		{"a gate off", Annotations{Gates: []fg.FeatureGateName{"A", "C"}}, tp, false},
		{"gates off but CustomNoUpgrade", Annotations{Gates: []fg.FeatureGateName{"C"}}, custom, true},
		{"feature set wins over gates", Annotations{FeatureSets: []fg.FeatureSetName{fg.Default}, Gates: []fg.FeatureGateName{"A"}}, def, true},
	}
	for _, c := range cases {
		if got := c.a.Covers(c.t); got != c.want {
			t.Errorf("%s: Covers(%v) = %v, want %v", c.name, c.t.Tuple, got, c.want)
		}
	}
}
