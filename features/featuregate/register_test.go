package featuregate

import (
	"strings"
	"testing"
)

// wantRegisterError registers b and checks that it fails with a message naming
// the gate and containing every fragment, and that nothing was registered.
func wantRegisterError(t *testing.T, r *Registry, b *FeatureGateBuilder, fragments ...string) {
	t.Helper()
	name, err := b.Register()
	if err == nil {
		t.Fatalf("Register(%q) succeeded, want an error containing %q", name, fragments)
	}
	msg := err.Error()
	if !strings.Contains(msg, `feature gate "`+string(name)+`"`) {
		t.Errorf("error does not name the gate %q: %v", name, msg)
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("error %q does not contain %q", msg, f)
		}
	}
}

func TestRegisterRejectsDuplicates(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, validGate(r, "Dup").Enable(InDefault()))
	wantRegisterError(t, r, validGate(r, "Dup").Enable(InOKD()), "already registered")
	// The first declaration must survive the rejected one.
	g, _ := r.Gate("Dup")
	if len(g.Rules) != 1 || g.Rules[0].FeatureSets[0] != Default {
		t.Errorf("first declaration was changed: %+v", g)
	}
}

func TestRegisterRejectsMissingMetadata(t *testing.T) {
	cases := []struct {
		name    string
		mutate  func(*FeatureGateBuilder)
		message string
	}{
		{"component", func(b *FeatureGateBuilder) { b.OwningComponent("") }, "owning component is not set"},
		{"contact", func(b *FeatureGateBuilder) { b.ContactPerson("") }, "contact person is not set"},
		{"scope", func(b *FeatureGateBuilder) { b.ProductScope("") }, "product scope is not set"},
		{"unknown scope", func(b *FeatureGateBuilder) { b.ProductScope("Mars") }, `product scope "Mars"`},
		{"enhancement", func(b *FeatureGateBuilder) { b.EnhancementPR("") }, "enhancement PR is not set"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			b := validGate(r, "Meta")
			tc.mutate(b)
			wantRegisterError(t, r, b, tc.message)
			if _, ok := r.Gate("Meta"); ok {
				t.Error("an invalid gate was registered")
			}
		})
	}
	t.Run("empty name", func(t *testing.T) {
		r := NewRegistry()
		wantRegisterError(t, r, validGate(r, ""), "name is empty")
	})
	t.Run("all problems are reported at once", func(t *testing.T) {
		r := NewRegistry()
		wantRegisterError(t, r, r.NewFeatureGate("Bare"),
			"owning component", "contact person", "product scope", "enhancement PR")
	})
}

func TestEnhancementRule(t *testing.T) {
	cases := []struct {
		name    string
		gate    FeatureGateName
		value   string
		opts    []RegistryOption
		problem string // empty: accepted
	}{
		{name: "openshift PR", gate: "G", value: "https://github.com/openshift/enhancements/pull/1234"},
		{name: "kubernetes KEP issue", gate: "G", value: "https://github.com/kubernetes/enhancements/issues/42"},
		{name: "ovn-kubernetes PR", gate: "G", value: "https://github.com/ovn-kubernetes/ovn-kubernetes/pull/7"},
		{name: "sentinel on allow-listed gate", gate: "Old", value: LegacyEnhancementSentinel,
			opts: []RegistryOption{WithLegacyFeatureGates("Old")}},
		{name: "sentinel on other gate", gate: "New", value: LegacyEnhancementSentinel,
			opts: []RegistryOption{WithLegacyFeatureGates("Old")}, problem: "legacy list"},
		{name: "sentinel with default registry", gate: "Old", value: LegacyEnhancementSentinel, problem: "legacy list"},
		{name: "unknown host", gate: "G", value: "https://example.com/openshift/enhancements/pull/1", problem: "does not start with"},
		{name: "http scheme", gate: "G", value: "http://github.com/openshift/enhancements/pull/1", problem: "does not start with"},
		{name: "prefix only", gate: "G", value: "https://github.com/openshift/enhancements/pull/", problem: "followed by an identifier"},
		{name: "wrong kind of link", gate: "G", value: "https://github.com/openshift/enhancements/issues/1", problem: "does not start with"},
		{name: "unparsable", gate: "G", value: "https://github.com/openshift/enhancements/pull/1%zz", problem: "not a valid URL"},
		{name: "custom prefix accepted", gate: "G", value: "https://tracker.example/EP-1",
			opts: []RegistryOption{WithEnhancementPrefixes("https://tracker.example/")}},
		{name: "custom prefixes replace defaults", gate: "G", value: "https://github.com/openshift/enhancements/pull/1",
			opts: []RegistryOption{WithEnhancementPrefixes("https://tracker.example/")}, problem: "https://tracker.example/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry(tc.opts...)
			b := validGate(r, tc.gate).EnhancementPR(tc.value)
			if tc.problem == "" {
				mustRegister(t, b)
				return
			}
			wantRegisterError(t, r, b, tc.problem)
		})
	}
}

func TestRegisterRejectsBadOptions(t *testing.T) {
	cases := []struct {
		name    string
		enable  func(*FeatureGateBuilder)
		message string
	}{
		{"unknown operator", func(b *FeatureGateBuilder) { b.Enable(InDefault(), InVersion(5, "~")) }, "unknown operator"},
		{"< below range", func(b *FeatureGateBuilder) { b.Enable(InDefault(), InVersion(4, VersionLessThan)) }, "selects no version"},
		{"> above range", func(b *FeatureGateBuilder) { b.Enable(InDefault(), InVersion(10, VersionGreaterThan)) }, "selects no version"},
		{"non-positive version", func(b *FeatureGateBuilder) { b.Enable(InDefault(), InVersion(0, VersionEqual)) }, "positive"},
		{"unknown feature set", func(b *FeatureGateBuilder) { b.EnableIn("Bogus") }, `unknown feature set "Bogus"`},
		{"single node profile", func(b *FeatureGateBuilder) { b.EnableForClusterProfile(SingleNode, Default) }, `cluster profile "SingleNode"`},
		{"unknown profile", func(b *FeatureGateBuilder) { b.Enable(InDefault(), InClusterProfile("Edge")) }, `cluster profile "Edge"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			b := validGate(r, "Opt")
			tc.enable(b)
			wantRegisterError(t, r, b, tc.message)
		})
	}
}

func TestSealedRegistryRejectsRegistration(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, validGate(r, "Before"))
	r.Seal()
	wantRegisterError(t, r, validGate(r, "After"), "sealed")
	if _, ok := r.Gate("Before"); !ok {
		t.Error("sealing lost a gate")
	}
}

func TestGatesReturnsCopies(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, validGate(r, "G").Enable(InDefault()))
	gates := r.Gates()
	gates[0].Rules[0].FeatureSets[0] = OKD
	gates[0].Rules = nil
	if got := r.FeatureSets(4, Hypershift, Default).Enabled; len(got) != 1 {
		t.Errorf("changing a returned gate changed the registry: enabled in Default = %v", got)
	}
}
