package features

import (
	"slices"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// TestDefaultImpliesOKD is the registry invariant: OKD is a superset of
// Default for every profile and version.
func TestDefaultImpliesOKD(t *testing.T) {
	for _, v := range Versions() {
		for _, p := range featuregate.ClusterProfiles() {
			okd := FeatureSets(v, p, featuregate.OKD).Enabled
			for _, gate := range FeatureSets(v, p, featuregate.Default).Enabled {
				if !slices.Contains(okd, gate) {
					t.Errorf("%s is enabled in Default but not in OKD for version %d on %s", gate, v, p)
				}
			}
		}
	}
}

// TestDeclaredGates pins where each of this repository's gates is on, as
// stated by the issue that introduced them.
func TestDeclaredGates(t *testing.T) {
	preview := func(fs featuregate.FeatureSetName) bool {
		return fs == featuregate.TechPreviewNoUpgrade || fs == featuregate.DevPreviewNoUpgrade
	}
	want := map[featuregate.FeatureGateName]func(featuregate.Tuple) bool{
		FeatureGateExample:  func(t featuregate.Tuple) bool { return preview(t.FeatureSet) },
		FeatureGateExample2: func(t featuregate.Tuple) bool { return t.FeatureSet == featuregate.DevPreviewNoUpgrade },
		FeatureGateExampleStable: func(t featuregate.Tuple) bool {
			return t.FeatureSet != featuregate.CustomNoUpgrade
		},
		FeatureGateExampleHypershiftOnly: func(t featuregate.Tuple) bool {
			return t.ClusterProfile == featuregate.Hypershift && t.FeatureSet != featuregate.CustomNoUpgrade
		},
		FeatureGateExampleFromVersion5: func(t featuregate.Tuple) bool { return preview(t.FeatureSet) && t.Version >= 5 },
		FeatureGateExampleCustomOnly:   func(t featuregate.Tuple) bool { return t.FeatureSet == featuregate.CustomNoUpgrade },
	}
	var names []featuregate.FeatureGateName
	for _, g := range Registry().Gates() {
		names = append(names, g.Name)
	}
	if len(names) != len(want) {
		t.Errorf("registered gates %v; want exactly the %d declared here", names, len(want))
	}
	if got := Versions(); !slices.Equal(got, []int{4, 5, 6, 7, 8, 9, 10}) {
		t.Errorf("Versions() = %v, want 4..10", got)
	}
	featureSets := append(featuregate.FixedFeatureSets(), featuregate.CustomNoUpgrade)
	for _, v := range Versions() {
		for _, p := range featuregate.ClusterProfiles() {
			for _, fs := range featureSets {
				tuple := featuregate.Tuple{Version: v, ClusterProfile: p, FeatureSet: fs}
				enabled := FeatureSets(v, p, fs).Enabled
				for gate, on := range want {
					if got := slices.Contains(enabled, gate); got != on(tuple) {
						t.Errorf("%v: %s enabled = %v, want %v", tuple, gate, got, on(tuple))
					}
				}
			}
		}
	}
	if n := len(AllFeatureSets()); n != 7*2*4 {
		t.Errorf("AllFeatureSets has %d tuples, want 7 versions x 2 profiles x 4 fixed feature sets", n)
	}
}

func TestRegistryIsSealed(t *testing.T) {
	_, err := Registry().NewFeatureGate("Late").OwningComponent("c").ContactPerson("p").
		ProductScope(featuregate.ProductScopeOCP).
		EnhancementPR("https://github.com/openshift/enhancements/pull/1").Register()
	if err == nil {
		t.Fatal("registering into the package registry after init succeeded")
	}
	if _, ok := Registry().Gate("Late"); ok {
		t.Error("a late gate leaked into the registry")
	}
}
