package manifestmerge

import (
	"slices"
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

// TestSameJSONMatchesTheEncoding: sameJSON decides the list contents it
// knows as comparing their JSON encodings would, and says when it does
// not know; containsItem then compares the encodings.
func TestSameJSONMatchesTheEncoding(t *testing.T) {
	rule := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, c := range []struct {
		name  string
		a, b  any
		known bool
	}{
		{"equal strings", "spec", "spec", true},
		{"different strings", "spec", "status", true},
		{"equal rules", rule("rule", "self.a", "message", "m"), rule("message", "m", "rule", "self.a"), true},
		{"different messages", rule("rule", "self.a", "message", "m"), rule("rule", "self.a", "message", "n"), true},
		{"a key more", rule("rule", "self.a"), rule("rule", "self.a", "optionalOldSelf", true), true},
		{"same keys, other key", rule("rule", "self.a"), rule("reason", "self.a"), true},
		{"booleans", rule("optionalOldSelf", true), rule("optionalOldSelf", false), true},
		{"nested lists", []any{"a", []any{"b"}}, []any{"a", []any{"b"}}, true},
		{"lists of other lengths", []any{"a"}, []any{"a", "b"}, true},
		{"mixed types", "true", true, false},
		{"numbers of two types", int64(1), float64(1), false},
		{"invalid UTF-8", "\xff", "\xfe", false},
		{"invalid UTF-8 key", rule("\xff", "x"), rule("\xfe", "x"), false},
		{"invalid UTF-8 key, other keys", rule("a", "x", "\xff", "y"), rule("b", "x", "\xfe", "y"), false},
		{"other keys", rule("a", "x", "c", "y"), rule("b", "x", "c", "y"), true},
		{"nil map", map[string]any(nil), map[string]any{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			same, known := sameJSON(c.a, c.b)
			if known != c.known {
				t.Fatalf("known = %v, want %v", known, c.known)
			}
			want := encode(c.a) == encode(c.b)
			if known && same != want {
				t.Errorf("same = %v, but the encodings %s and %s say %v", same, encode(c.a), encode(c.b), want)
			}
			if got := containsItem([]any{"other", c.a}, c.b); got != want {
				t.Errorf("containsItem = %v, want %v", got, want)
			}
		})
	}
}

// TestLostLooksUpEachPlace: a manifest's lists are found once and looked
// up in the merged object: an item missing from the merged list is lost,
// an item encoded alike is not, a node the merged object lacks loses all
// of its items, and a version it lacks is not looked at. Two manifests'
// lists at one place share its number and its lookup.
func TestLostLooksUpEachPlace(t *testing.T) {
	version := func(name string, spec map[string]any) map[string]any {
		return map[string]any{"name": name, "schema": map[string]any{"properties": map[string]any{"spec": spec}}}
	}
	src := map[string]any{"spec": map[string]any{"versions": []any{
		version("v1", map[string]any{"required": []any{"a", "b"}, "x-kubernetes-validations": []any{map[string]any{"rule": "r1"}}}),
		version("v2", map[string]any{"required": []any{"c"}}),
		version("v3", map[string]any{"required": []any{"d"}}),
	}}}
	other := map[string]any{"spec": map[string]any{"versions": []any{
		version("v1", map[string]any{"required": []any{"a", "e"}}),
	}}}
	merged := map[string]any{"spec": map[string]any{"versions": []any{
		version("v1", map[string]any{"required": []any{"a"}, "x-kubernetes-validations": []any{map[string]any{"rule": "r1"}}}),
		map[string]any{"name": "v2"},
	}}}
	var lp listPlaces
	haves := map[int][][]any{}
	lost := func(obj map[string]any) []string {
		var got []string
		for _, d := range lp.lost((&partialManifest{plain: obj}).listSites(&lp), merged, haves) {
			got = append(got, strings.Join(d.path, ".")+"."+d.key+" "+encode(d.item))
		}
		slices.Sort(got)
		return got
	}
	got, want := lost(src), []string{
		`spec.versions[v1].schema.properties.spec.required "b"`,
		`spec.versions[v2].schema.properties.spec.required "c"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("lost items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, want := lost(other), []string{`spec.versions[v1].schema.properties.spec.required "e"`}; !slices.Equal(got, want) {
		t.Errorf("lost items of the other manifest: %v, want %v", got, want)
	}
	if len(lp.places) != 4 || len(haves) != 4 {
		t.Errorf("%d places, %d looked up; want the 4 places of the first manifest, which the other shares", len(lp.places), len(haves))
	}
}
