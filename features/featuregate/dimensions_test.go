package featuregate

import (
	"reflect"
	"slices"
	"testing"
)

func TestVersionsExtendedByEqualConditionsOnly(t *testing.T) {
	r := NewRegistry()
	if got, want := r.Versions(), []int{4, 5, 6, 7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Fatalf("empty registry: Versions() = %v, want %v", got, want)
	}
	mustRegister(t, validGate(r, "Ranges").Enable(InDefault(), InVersion(2, VersionGreaterThanOrEqual), InVersion(20, VersionLessThan)))
	if got, want := r.Versions(), []int{4, 5, 6, 7, 8, 9, 10}; !slices.Equal(got, want) {
		t.Fatalf("clamped ranges must not extend the dimension: Versions() = %v, want %v", got, want)
	}
	mustRegister(t, validGate(r, "Future").Enable(InDefault(), InVersion(12, VersionEqual)))
	mustRegister(t, validGate(r, "Past").Enable(InOKD(), InVersion(3, VersionEqual)))
	if got, want := r.Versions(), []int{3, 4, 5, 6, 7, 8, 9, 10, 12}; !slices.Equal(got, want) {
		t.Errorf("Versions() = %v, want %v", got, want)
	}
}

func TestAllFeatureSetsCoversTheRenderedSpace(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, validGate(r, "Future").Enable(InDefault(), InVersion(12, VersionEqual)))
	mustRegister(t, validGate(r, "Custom").Enable(InCustomNoUpgrade()))
	all := r.AllFeatureSets()

	var want []Tuple
	for _, v := range []int{4, 5, 6, 7, 8, 9, 10, 12} {
		for _, p := range []ClusterProfileName{Hypershift, SelfManagedHA} {
			for _, fs := range []FeatureSetName{Default, DevPreviewNoUpgrade, OKD, TechPreviewNoUpgrade} {
				want = append(want, Tuple{v, p, fs})
			}
		}
	}
	var got []Tuple
	for _, tg := range all {
		got = append(got, tg.Tuple)
		if !reflect.DeepEqual(tg.GateLists, r.FeatureSets(tg.Version, tg.ClusterProfile, tg.FeatureSet)) {
			t.Errorf("%v: AllFeatureSets disagrees with FeatureSets", tg.Tuple)
		}
		if slices.Contains(tg.Enabled, "Custom") {
			t.Errorf("%v: a CustomNoUpgrade-only gate is enabled in a fixed feature set", tg.Tuple)
		}
		if on := slices.Contains(tg.Enabled, "Future"); on != (tg.Version == 12 && tg.FeatureSet == Default) {
			t.Errorf("%v: Future enabled = %v", tg.Tuple, on)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("tuples = %v\nwant %v", got, want)
	}
}

// TestLegacySugar checks that EnableIn and EnableForClusterProfile declare the
// same rules, and so the same answers, as their Enable spelling.
func TestLegacySugar(t *testing.T) {
	cases := []struct {
		name   string
		legacy func(*FeatureGateBuilder)
		modern func(*FeatureGateBuilder)
	}{
		{
			name:   "EnableIn",
			legacy: func(b *FeatureGateBuilder) { b.EnableIn(TechPreviewNoUpgrade, DevPreviewNoUpgrade) },
			modern: func(b *FeatureGateBuilder) { b.Enable(InTechPreviewNoUpgrade(), InDevPreviewNoUpgrade()) },
		},
		{
			name:   "EnableIn every feature set",
			legacy: func(b *FeatureGateBuilder) { b.EnableIn(Default, OKD, CustomNoUpgrade) },
			modern: func(b *FeatureGateBuilder) { b.Enable(InDefault(), InOKD(), InCustomNoUpgrade()) },
		},
		{
			name:   "EnableForClusterProfile",
			legacy: func(b *FeatureGateBuilder) { b.EnableForClusterProfile(Hypershift, Default, OKD) },
			modern: func(b *FeatureGateBuilder) { b.Enable(InClusterProfile(Hypershift), InDefault(), InOKD()) },
		},
		{
			name: "mixed with several rules",
			legacy: func(b *FeatureGateBuilder) {
				b.EnableForClusterProfile(SelfManagedHA, DevPreviewNoUpgrade).EnableIn(TechPreviewNoUpgrade)
			},
			modern: func(b *FeatureGateBuilder) {
				b.Enable(InClusterProfile(SelfManagedHA), InDevPreviewNoUpgrade()).Enable(InTechPreviewNoUpgrade())
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			legacy, modern := validGate(r, "Legacy"), validGate(r, "Modern")
			tc.legacy(legacy)
			tc.modern(modern)
			mustRegister(t, legacy)
			mustRegister(t, modern)
			l, _ := r.Gate("Legacy")
			m, _ := r.Gate("Modern")
			if !reflect.DeepEqual(l.Rules, m.Rules) {
				t.Errorf("rules differ:\nlegacy %+v\nmodern %+v", l.Rules, m.Rules)
			}
			for _, tuple := range testSpace() {
				got := r.FeatureSets(tuple.Version, tuple.ClusterProfile, tuple.FeatureSet)
				if slices.Contains(got.Enabled, "Legacy") != slices.Contains(got.Enabled, "Modern") {
					t.Errorf("%v: legacy and modern spellings disagree", tuple)
				}
			}
		})
	}
}

func TestNames(t *testing.T) {
	for _, p := range []ClusterProfileName{Hypershift, SelfManagedHA, SingleNode} {
		back, ok := ClusterProfileForAnnotationKey(p.AnnotationKey())
		if !ok || back != p {
			t.Errorf("%s: annotation key %q maps back to %q, %v", p, p.AnnotationKey(), back, ok)
		}
	}
	if got := Hypershift.AnnotationKey(); got != "include.release.openshift.io/ibm-cloud-managed" {
		t.Errorf("Hypershift key = %q", got)
	}
	if got := SelfManagedHA.AnnotationKey(); got != "include.release.openshift.io/self-managed-high-availability" {
		t.Errorf("SelfManagedHA key = %q", got)
	}
	if _, ok := ClusterProfileForAnnotationKey("include.release.openshift.io/other"); ok {
		t.Error("unknown key recognised")
	}
	if SingleNode.IsRendered() || !Hypershift.IsRendered() {
		t.Error("IsRendered: only Hypershift and SelfManagedHA are rendered")
	}
	if Default.SpecValue() != "" || OKD.SpecValue() != "OKD" {
		t.Error("SpecValue: Default is spelled as the empty string, others as themselves")
	}
	if FeatureSetFromSpec("") != Default || FeatureSetFromSpec("TechPreviewNoUpgrade") != TechPreviewNoUpgrade {
		t.Error("FeatureSetFromSpec is not the inverse of SpecValue")
	}
	for _, fs := range FixedFeatureSets() {
		if !fs.IsFixed() {
			t.Errorf("%s listed as fixed but IsFixed is false", fs)
		}
	}
	if CustomNoUpgrade.IsFixed() || !CustomNoUpgrade.IsKnown() || FeatureSetName("X").IsKnown() {
		t.Error("CustomNoUpgrade is known but not fixed; X is unknown")
	}
	if !slices.IsSorted(FixedFeatureSets()) || !slices.IsSorted(ClusterProfiles()) {
		t.Error("FixedFeatureSets and ClusterProfiles must be in ascending order")
	}
}
