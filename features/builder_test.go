package features

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// declared starts a valid declaration on a private registry through the same
// lower-case builder the package uses.
func declared(r *featuregate.Registry, name featuregate.FeatureGateName) *featureGateBuilder {
	return newFeatureGateIn(r, name).
		reportProblemsToComponent("example-component").contactPerson("api-team").productScope(ocpSpecific).
		enhancementPR("https://github.com/openshift/enhancements/pull/1")
}

// mustRegisterPanic returns the value mustRegister panicked with, or nil.
func mustRegisterPanic(f *featureGateBuilder) (recovered any) {
	defer func() { recovered = recover() }()
	f.mustRegister()
	return nil
}

// TestDeclarationValidation runs the validation behind mustRegister on
// broken declarations: register reports the problem with the gate name and
// mustRegister panics with it.
func TestDeclarationValidation(t *testing.T) {
	cases := []struct {
		name    string
		gate    featuregate.FeatureGateName
		declare func(*featuregate.Registry) *featureGateBuilder
		problem string
	}{
		{"missing component", "NoComponent", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "NoComponent").reportProblemsToComponent("")
		}, "owning component"},
		{"missing contact", "NoContact", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "NoContact").contactPerson("")
		}, "contact person"},
		{"missing scope", "NoScope", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "NoScope").productScope("")
		}, "product scope"},
		{"missing enhancement", "NoPR", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "NoPR").enhancementPR("")
		}, "enhancement PR is not set"},
		{"bad enhancement URL", "BadPR", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "BadPR").enhancementPR("https://github.com/openshift/api/pull/1")
		}, "does not start with"},
		{"sentinel on a new gate", "NewGate", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "NewGate").enhancementPR(legacyFeatureGateWithoutEnhancement)
		}, "legacy"},
		{"duplicate", "Twice", func(r *featuregate.Registry) *featureGateBuilder {
			if _, err := declared(r, "Twice").register(); err != nil {
				t.Fatal(err)
			}
			return declared(r, "Twice")
		}, "already registered"},
		{"bad version operator", "BadOp", func(r *featuregate.Registry) *featureGateBuilder {
			return declared(r, "BadOp").enable(inDefault(), inVersion(5, "=>"))
		}, "unknown operator"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.declare(featuregate.NewRegistry()).register()
			if err == nil || !strings.Contains(err.Error(), string(tc.gate)) || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("register: %v; want an error naming %s and containing %q", err, tc.gate, tc.problem)
			}
			p := mustRegisterPanic(tc.declare(featuregate.NewRegistry()))
			if msg := fmt.Sprint(p); p == nil || !strings.Contains(msg, string(tc.gate)) {
				t.Errorf("mustRegister panicked with %v; want a message naming %s", p, tc.gate)
			}
		})
	}
	if p := mustRegisterPanic(declared(featuregate.NewRegistry(), "Fine")); p != nil {
		t.Errorf("mustRegister panicked on a valid declaration: %v", p)
	}
}

// TestBuilderWrappers checks that each lower-case option and the legacy
// sugar declare the same rules as the library's exported spelling.
func TestBuilderWrappers(t *testing.T) {
	cases := []struct {
		name    string
		wrapped func(*featureGateBuilder)
		library func(*featuregate.FeatureGateBuilder)
	}{
		{"feature sets",
			func(f *featureGateBuilder) {
				f.enable(inDefault(), inOKD(), inTechPreviewNoUpgrade(), inDevPreviewNoUpgrade(), inCustomNoUpgrade())
			},
			func(b *featuregate.FeatureGateBuilder) {
				b.Enable(featuregate.InDefault(), featuregate.InOKD(), featuregate.InTechPreviewNoUpgrade(),
					featuregate.InDevPreviewNoUpgrade(), featuregate.InCustomNoUpgrade())
			}},
		{"profile and versions",
			func(f *featureGateBuilder) {
				f.enable(inDefault(), inClusterProfile(featuregate.SelfManagedHA), inVersion(6, "<"), inVersion(9, "="))
			},
			func(b *featuregate.FeatureGateBuilder) {
				b.Enable(featuregate.InDefault(), featuregate.InClusterProfile(featuregate.SelfManagedHA),
					featuregate.InVersion(6, featuregate.VersionLessThan), featuregate.InVersion(9, featuregate.VersionEqual))
			}},
		{"enableIn",
			func(f *featureGateBuilder) { f.enableIn(featuregate.TechPreviewNoUpgrade, featuregate.OKD) },
			func(b *featuregate.FeatureGateBuilder) {
				b.Enable(featuregate.InTechPreviewNoUpgrade(), featuregate.InOKD())
			}},
		{"enableForClusterProfile",
			func(f *featureGateBuilder) { f.enableForClusterProfile(featuregate.Hypershift, featuregate.Default) },
			func(b *featuregate.FeatureGateBuilder) {
				b.Enable(featuregate.InClusterProfile(featuregate.Hypershift), featuregate.InDefault())
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := featuregate.NewRegistry()
			w := declared(r, "Wrapped").productScope(kubernetesScope)
			tc.wrapped(w)
			if _, err := w.register(); err != nil {
				t.Fatal(err)
			}
			b := r.NewFeatureGate("Library").OwningComponent("c").ContactPerson("p").
				ProductScope(featuregate.ProductScopeKubernetes).
				EnhancementPR("https://github.com/openshift/enhancements/pull/1")
			tc.library(b)
			if _, err := b.Register(); err != nil {
				t.Fatal(err)
			}
			wrapped, _ := r.Gate("Wrapped")
			library, _ := r.Gate("Library")
			if !reflect.DeepEqual(wrapped.Rules, library.Rules) || wrapped.ProductScope != library.ProductScope {
				t.Errorf("wrapped %+v\nlibrary %+v", wrapped, library)
			}
		})
	}
}
