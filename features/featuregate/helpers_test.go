package featuregate

import "testing"

// validGate starts a gate whose metadata passes validation, so that a test
// only states what it is about.
func validGate(r *Registry, name FeatureGateName) *FeatureGateBuilder {
	return r.NewFeatureGate(name).
		OwningComponent("component").
		ContactPerson("someone").
		ProductScope(ProductScopeOCP).
		EnhancementPR("https://github.com/openshift/enhancements/pull/1")
}

func mustRegister(t *testing.T, b *FeatureGateBuilder) FeatureGateName {
	t.Helper()
	name, err := b.Register()
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	return name
}

// testSpace is larger than the version dimension and includes a profile and a
// feature set that rules rarely name, so that "matches everything" and
// "matches nothing" are both observable.
func testSpace() []Tuple {
	var space []Tuple
	for v := 1; v <= 13; v++ {
		for _, p := range []ClusterProfileName{Hypershift, SelfManagedHA, SingleNode} {
			for _, fs := range []FeatureSetName{Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade, CustomNoUpgrade, OKD} {
				space = append(space, Tuple{Version: v, ClusterProfile: p, FeatureSet: fs})
			}
		}
	}
	return space
}
