package manifestmerge

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// withRules sets spec's CEL rules and required fields in a crdSource object.
func withRules(rules []string, required ...string) func(obj map[string]any) {
	return func(obj map[string]any) {
		v := obj["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)
		spec := v["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)
		var list []any
		for _, r := range rules {
			list = append(list, map[string]any{"rule": r})
		}
		spec["x-kubernetes-validations"] = list
		if len(required) > 0 {
			var req []any
			for _, r := range required {
				req = append(req, r)
			}
			spec["required"] = req
		}
	}
}

// TestWarnsWhenALaterGateFileDropsARule pins the atomic-list trap: with
// Example and Example2 both on (DevPreviewNoUpgrade, CustomNoUpgrade),
// Example2.yaml is merged after Example.yaml and its copy of the spec rule
// list and required list replaces Example's, losing Example's rule and its
// required field. The merge result is the reference's; the warning is ours.
func TestWarnsWhenALaterGateFileDropsARule(t *testing.T) {
	const plain, ruleA, ruleB = "self.name != ''", "self.a != 'x'", "self.b != 'y'"
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, withRules([]string{plain}, "name")),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}), []string{"name", "a"}, withRules([]string{ruleA, plain}, "name", "a")),
		widgetsGated + "Example2.yaml":    crdSource(gated([]string{"Example2"}), []string{"name", "b"}, withRules([]string{ruleB, plain}, "name")),
	})
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	got := run.diagnostics()
	for _, want := range []string{
		`warning: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: spec.versions[v1].schema.openAPIV3Schema.properties.spec.x-kubernetes-validations: CEL rule {"rule":"self.a != 'x'"} is lost whenever Example2.yaml is merged after this file`,
		`Example.yaml: spec.versions[v1].schema.openAPIV3Schema.properties.spec.required: required field "a" is lost whenever Example2.yaml is merged after this file`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack\n  %s\ngot:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "warning:"); n != 2 {
		t.Errorf("%d warnings, want 2 (each loss once, nothing about the ungated file or Example2's own rule):\n%s", n, got)
	}
}

// TestNoWarningWhenEveryRuleSurvives: the per-feature-set fixture keeps
// every gated rule (a combination file carries both), so nothing is said.
func TestNoWarningWhenEveryRuleSurvives(t *testing.T) {
	const plain, ruleA, ruleB = "self.name != ''", "self.a != 'x'", "self.b != 'y'"
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml":      crdSource(gated([]string{""}), []string{"name"}, nil),
		widgetsGated + "Example.yaml":          crdSource(gated([]string{"Example"}), []string{"name", "a"}, withRules([]string{ruleA, plain})),
		widgetsGated + "Example+Example2.yaml": crdSource(gated([]string{"Example", "Example2"}), []string{"name", "a", "b"}, withRules([]string{ruleA, ruleB, plain})),
	})
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	if got := run.diagnostics(); got != "" {
		t.Fatalf("unexpected diagnostics:\n%s", got)
	}
}
