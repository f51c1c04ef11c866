package featuregate

import (
	"slices"
	"testing"
)

// TestRuleMatching pins the reference's matching rule: a gate is enabled for a tuple when one of its
// rules matches, and a rule matches when its version set is empty or contains
// the version, its profile set is empty or contains the profile, and its
// feature-set set contains the feature set. Each case states the expected
// answer as a predicate over the whole test space.
func TestRuleMatching(t *testing.T) {
	between := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	cases := []struct {
		name  string
		rules [][]EnablementOption
		want  func(Tuple) bool
	}{
		{
			name: "no rule: disabled everywhere",
			want: func(Tuple) bool { return false },
		},
		{
			name:  "empty version and profile sets match every version and profile",
			rules: [][]EnablementOption{{InTechPreviewNoUpgrade()}},
			want:  func(t Tuple) bool { return t.FeatureSet == TechPreviewNoUpgrade },
		},
		{
			name:  "rule without feature set never matches",
			rules: [][]EnablementOption{{InClusterProfile(Hypershift), InVersion(5, VersionGreaterThanOrEqual)}},
			want:  func(Tuple) bool { return false },
		},
		{
			name:  "empty rule never matches",
			rules: [][]EnablementOption{{}},
			want:  func(Tuple) bool { return false },
		},
		{
			name:  "profile restriction",
			rules: [][]EnablementOption{{InDefault(), InOKD(), InClusterProfile(Hypershift)}},
			want: func(t Tuple) bool {
				return t.ClusterProfile == Hypershift && (t.FeatureSet == Default || t.FeatureSet == OKD)
			},
		},
		{
			name:  "repeated profile options add up",
			rules: [][]EnablementOption{{InDefault(), InClusterProfile(Hypershift), InClusterProfile(SelfManagedHA)}},
			want: func(t Tuple) bool {
				return t.FeatureSet == Default && t.ClusterProfile != SingleNode
			},
		},
		{
			name: "several rules are ORed",
			rules: [][]EnablementOption{
				{InDefault(), InClusterProfile(Hypershift)},
				{InDevPreviewNoUpgrade(), InVersion(7, VersionLessThanOrEqual)},
			},
			want: func(t Tuple) bool {
				return (t.FeatureSet == Default && t.ClusterProfile == Hypershift) ||
					(t.FeatureSet == DevPreviewNoUpgrade && between(t.Version, 4, 7))
			},
		},
		{
			name:  "= selects exactly v",
			rules: [][]EnablementOption{{InDefault(), InVersion(6, VersionEqual)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && t.Version == 6 },
		},
		{
			name:  "= may select a version outside 4..10",
			rules: [][]EnablementOption{{InDefault(), InVersion(12, VersionEqual)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && t.Version == 12 },
		},
		{
			name:  "> selects v+1..10",
			rules: [][]EnablementOption{{InDefault(), InVersion(6, VersionGreaterThan)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && between(t.Version, 7, 10) },
		},
		{
			name:  ">= selects v..10",
			rules: [][]EnablementOption{{InDefault(), InVersion(6, VersionGreaterThanOrEqual)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && between(t.Version, 6, 10) },
		},
		{
			name:  "< selects 4..v-1",
			rules: [][]EnablementOption{{InDefault(), InVersion(6, VersionLessThan)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && between(t.Version, 4, 5) },
		},
		{
			name:  "<= selects 4..v",
			rules: [][]EnablementOption{{InDefault(), InVersion(6, VersionLessThanOrEqual)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && between(t.Version, 4, 6) },
		},
		{
			name:  "ranges are clamped to 4..10",
			rules: [][]EnablementOption{{InDefault(), InVersion(2, VersionGreaterThanOrEqual), InVersion(15, VersionLessThanOrEqual)}},
			want:  func(t Tuple) bool { return t.FeatureSet == Default && between(t.Version, 4, 10) },
		},
		{
			name:  "repeated version conditions add up",
			rules: [][]EnablementOption{{InOKD(), InVersion(5, VersionEqual), InVersion(9, VersionGreaterThanOrEqual)}},
			want: func(t Tuple) bool {
				return t.FeatureSet == OKD && (t.Version == 5 || between(t.Version, 9, 10))
			},
		},
		{
			name:  "CustomNoUpgrade is matched only when named",
			rules: [][]EnablementOption{{InCustomNoUpgrade()}},
			want:  func(t Tuple) bool { return t.FeatureSet == CustomNoUpgrade },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			b := validGate(r, "Gate")
			for _, rule := range tc.rules {
				b.Enable(rule...)
			}
			mustRegister(t, b)
			for _, tuple := range testSpace() {
				got := r.FeatureSets(tuple.Version, tuple.ClusterProfile, tuple.FeatureSet)
				enabled := slices.Contains(got.Enabled, "Gate")
				disabled := slices.Contains(got.Disabled, "Gate")
				if enabled == disabled {
					t.Fatalf("%v: gate is in enabled=%v and disabled=%v; want exactly one", tuple, enabled, disabled)
				}
				if want := tc.want(tuple); enabled != want {
					t.Errorf("%v: enabled = %v, want %v", tuple, enabled, want)
				}
			}
		})
	}
}

// TestFeatureSetsListsEveryGateOnceSorted checks the shape of the answer with
// several gates registered out of order.
func TestFeatureSetsListsEveryGateOnceSorted(t *testing.T) {
	r := NewRegistry()
	for _, n := range []FeatureGateName{"Zeta", "alpha", "Beta", "Gamma"} {
		b := validGate(r, n)
		if n == "Beta" || n == "alpha" {
			b.Enable(InDefault())
		}
		mustRegister(t, b)
	}
	got := r.FeatureSets(4, SelfManagedHA, Default)
	if want := []FeatureGateName{"Beta", "alpha"}; !slices.Equal(got.Enabled, want) {
		t.Errorf("Enabled = %v, want %v", got.Enabled, want)
	}
	if want := []FeatureGateName{"Gamma", "Zeta"}; !slices.Equal(got.Disabled, want) {
		t.Errorf("Disabled = %v, want %v", got.Disabled, want)
	}
	empty := NewRegistry().FeatureSets(4, Hypershift, Default)
	if empty.Enabled == nil || empty.Disabled == nil {
		t.Errorf("empty registry: lists must be empty, not nil: %#v", empty)
	}
}
