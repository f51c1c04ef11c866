package featuregate

import (
	"slices"
	"testing"
)

func TestTupleStringIsProfileFeatureSetVersion(t *testing.T) {
	got := Tuple{Version: 5, ClusterProfile: SelfManagedHA, FeatureSet: TechPreviewNoUpgrade}.String()
	if want := "SelfManagedHA/TechPreviewNoUpgrade/5"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestTupleCompareIsAllFeatureSetsOrder(t *testing.T) {
	r := NewRegistry()
	var tuples []Tuple
	for _, tg := range r.AllFeatureSets() {
		tuples = append(tuples, tg.Tuple)
	}
	shuffled := slices.Clone(tuples)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, Tuple.Compare)
	if !slices.Equal(shuffled, tuples) {
		t.Errorf("sorting by Compare gives %v, want %v", shuffled, tuples)
	}
}

func TestTupleCustom(t *testing.T) {
	for _, fs := range append(FixedFeatureSets(), CustomNoUpgrade) {
		if got := (Tuple{FeatureSet: fs}).Custom(); got != (fs == CustomNoUpgrade) {
			t.Errorf("%s: Custom() = %v", fs, got)
		}
	}
}

func TestGateListsIsEnabled(t *testing.T) {
	l := GateLists{Enabled: []FeatureGateName{"A", "C"}, Disabled: []FeatureGateName{"B"}}
	for name, want := range map[FeatureGateName]bool{"A": true, "B": false, "C": true, "D": false} {
		if got := l.IsEnabled(name); got != want {
			t.Errorf("IsEnabled(%s) = %v, want %v", name, got, want)
		}
	}
}
