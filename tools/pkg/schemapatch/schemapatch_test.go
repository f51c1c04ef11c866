package schemapatch

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestGoldenGates runs the stage on the gates fixture: a kind with every
// FeatureGate-aware marker alone and in combination, a type-gated kind, a
// type from a non-API package, manual overrides, a test suite, stage 3
// output and files that are not v1 CRDs. The golden directory holds every
// .yaml file of the tree after the run, changed or not.
func TestGoldenGates(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	res, tr := l.mustRun(t)
	goldenYAML(t, tr, l.base, "gates")

	want := Result{Manifests: 7, Updated: 7, Unmatched: 1, GateSets: 5, Schemas: 6}
	got := *res
	// Views counts the types of every package indexed (TestViewsSharedByActivation).
	got.Timing, got.Files, got.Views = Timing{}, nil, 0
	if !reflect.DeepEqual(got, want) {
		t.Errorf("result = %+v, want %+v", got, want)
	}
	if len(res.Files) != res.Manifests {
		t.Errorf("%d files handed on, want one per processed manifest (%d)", len(res.Files), res.Manifests)
	}
	for _, f := range res.Files {
		checkHandedOn(t, tr, f)
	}
}

// checkHandedOn checks that a file handed to stage 3 is what the tree
// holds and that its object is exactly what parsing the bytes gives.
func checkHandedOn(t *testing.T, tr *tree.Tree, f *manifest.File) {
	t.Helper()
	data, err := tr.ReadFile(f.Path)
	if err != nil || !bytes.Equal(data, f.Data) {
		t.Errorf("%s: handed-on bytes differ from the tree's (%v)", f.Path, err)
	}
	parsed, err := manifest.Parse(f.Data)
	if err != nil || !reflect.DeepEqual(parsed, f.Object) {
		t.Errorf("%s: handed-on object is not what parsing its bytes gives (%v)", f.Path, err)
	}
}

const (
	widgetDir = "widgets/v1/zz_generated.featuregated-crd-manifests/widgets.widgets.example.io/"
	specPath  = "spec.versions.0.schema.openAPIV3Schema.properties.spec"
)

// TestEffectTable pins down, manifest by manifest, what each gate set does
// to the Widget schema (the fixture's counterpart of the example's
// table in docs/reference-rules.md, "How the schema is written").
func TestEffectTable(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	_, tr := l.mustRun(t)
	files := map[string]map[string]any{}
	for rel, content := range yamlFiles(t, tr, l.base) {
		obj, err := manifest.Parse([]byte(content))
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = obj
	}
	const absent = "<absent>"
	manifests := []string{"AAA_ungated", "Example", "Example2", "Example+Example2"}
	cases := []struct {
		element string
		path    string
		// want per manifest, in the order of manifests.
		want [4]any
	}{
		{"field gated by Example", specPath + ".properties.shinyField.type",
			[4]any{absent, "string", absent, "string"}},
		{"field gated by Example or Example2 (two marker lines)", specPath + ".properties.eitherField.type",
			[4]any{absent, "string", "string", "string"}},
		{"a gated required field is required only where present", specPath + ".required",
			[4]any{
				[]any{"immutableField", "mode"},
				[]any{"eitherField", "immutableField", "mode"},
				[]any{"eitherField", "immutableField", "mode"},
				[]any{"eitherField", "immutableField", "mode"},
			}},
		{"maxItems: ungated, Example, required Example+Example2; the last active wins", specPath + ".properties.parts.maxItems",
			[4]any{2.0, 4.0, absent, 6.0}},
		{"type-level enum reached through a field", specPath + ".properties.mode.enum",
			[4]any{
				[]any{"", "Basic"},
				[]any{"", "Basic", "Fancy"},
				absent,
				[]any{"", "Basic", "Fancy", "Experimental"},
			}},
		{"type-level enum reached through a pointer field", specPath + ".properties.fallbackMode.enum",
			[4]any{
				[]any{"", "Basic"},
				[]any{"", "Basic", "Fancy"},
				absent,
				[]any{"", "Basic", "Fancy", "Experimental"},
			}},
		{"field-level enum", specPath + ".properties.style.enum",
			[4]any{[]any{"Plain", "Bold"}, absent, []any{"Plain", "Bold", "Italic"}, []any{"Plain", "Bold", "Italic"}}},
		{"gated field of a type in another package", specPath + ".properties.shared.properties.turbo.type",
			[4]any{absent, absent, "boolean", "boolean"}},
		{"type-level enum in another package, through a pointer", specPath + ".properties.shared.properties.speed.enum",
			[4]any{[]any{"Slow", "Normal"}, absent, []any{"Slow", "Normal", "Ludicrous"}, []any{"Slow", "Normal", "Ludicrous"}}},
		{"gated field of a list-map item", specPath + ".properties.entries.items.properties.flavour.type",
			[4]any{absent, absent, "string", "string"}},
		{"gated rules first, in source order, then plain rules", specPath + ".x-kubernetes-validations",
			[4]any{
				[]any{"size must be at most 100"},
				[]any{"shinyField cannot be unset once it has been set", "size must be at most 100"},
				[]any{"a part cannot be called forbidden", "size must be at most 100"},
				[]any{"shinyField cannot be unset once it has been set",
					"basicField cannot be unset once it has been set while Example and Example2 are both on",
					"a part cannot be called forbidden", "size must be at most 100"},
			}},
	}
	for _, c := range cases {
		for i, name := range manifests {
			obj := files[widgetDir+name+".yaml"]
			got, ok := lookup(obj, c.path)
			if !ok {
				got = absent
			}
			if rules, isList := got.([]any); isList && strings.HasSuffix(c.path, "x-kubernetes-validations") {
				var messages []any
				for _, r := range rules {
					messages = append(messages, r.(map[string]any)["message"])
				}
				got = messages
			}
			if !reflect.DeepEqual(got, c.want[i]) {
				t.Errorf("%s in %s: got %#v, want %#v", c.element, name, got, c.want[i])
			}
		}
	}
}

// TestEmptyGateSetIsNotUngated: a manifest without gate annotations (here a
// manual override naming a real kind) gets the schema with no gate at all,
// in which featureGate="" markers are not active either; its versions
// without a Go type lose their schema and spec.validation goes.
func TestEmptyGateSetIsNotUngated(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	_, tr := l.mustRun(t)
	obj := parseFile(t, tr, filepath.Join(l.base, "widgets/v1/manual-override-crd-manifests/gadgets.widgets.example.io/Everything.yaml"))
	if _, ok := lookup(obj, "spec.versions.0.schema.openAPIV3Schema.properties.spec.properties.shared.properties.speed.enum"); ok {
		t.Error("speed has an enum in the empty gate set; only featureGate=\"\" markers exist for it, which are ungated-only")
	}
	if _, ok := lookup(obj, "spec.versions.1.schema"); ok {
		t.Error("version v1beta1 has no Go type but kept its schema")
	}
	if _, ok := lookup(obj, "spec.validation"); ok {
		t.Error("legacy spec.validation was kept")
	}
}

func parseFile(t *testing.T, tr *tree.Tree, path string) map[string]any {
	t.Helper()
	data, err := tr.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	obj, err := manifest.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// lookup follows a dotted path through maps and lists (numeric segments
// index lists).
func lookup(obj any, path string) (any, bool) {
	cur := obj
	for _, seg := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[seg]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// TestSecondRunIsNoOp: once the output is committed, running again changes
// nothing and writes nothing.
func TestSecondRunIsNoOp(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	_, tr := l.mustRun(t)
	if _, err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	res, tr2 := l.mustRun(t)
	if res.Updated != 0 {
		t.Errorf("second run updated %d manifests", res.Updated)
	}
	changes, st, err := tr2.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 || st.Written != 0 || st.Unchanged != 0 {
		t.Errorf("second run recorded writes: %v (%+v)", changes, st)
	}
}

// TestVerifyReportsHandEditedSchema: a schema edited by hand shows up as a
// change with a diff, without anything being written; the same run with the
// file restored reports nothing.
func TestVerifyReportsHandEditedSchema(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	_, tr := l.mustRun(t)
	if _, err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.base, widgetDir, "Example.yaml")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(good), "maxItems: 4", "maxItems: 40", 1)
	if edited == string(good) {
		t.Fatal("fixture output lacks maxItems: 4")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	_, tr2 := l.mustRun(t)
	changes, _, err := tr2.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Path != path || changes[0].Kind != tree.Update {
		t.Fatalf("changes = %v, want one update of %s", changes, path)
	}
	report := tree.Describe(changes, l.base)
	for _, want := range []string{widgetDir + "Example.yaml is out of date", "-                maxItems: 40", "+                maxItems: 4"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if data, _ := os.ReadFile(path); string(data) != edited {
		t.Error("the run wrote to disk")
	}
}

// TestDeterministic: two runs over the same universe give the same bytes,
// so nothing a generation does leaks into the next (parsed marker values
// and type information are shared between generations and runs).
func TestDeterministic(t *testing.T) {
	l := load(t, prepare(t, "gates"))
	_, tr1 := l.mustRun(t)
	_, tr2 := l.mustRun(t)
	a, b := yamlFiles(t, tr1, l.base), yamlFiles(t, tr2, l.base)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs over the same universe differ")
	}
}

// TestOneLoadWhateverTheGateSets: loading and running the stage makes one
// package load, for one gate set as for six.
func TestOneLoadWhateverTheGateSets(t *testing.T) {
	for _, c := range []struct {
		name     string
		gateSets int
		edit     func(t *testing.T, base string)
	}{
		{"one gate set", 1, func(t *testing.T, base string) {
			dir := filepath.Join(base, widgetDir)
			for _, f := range []string{"Example.yaml", "Example2.yaml", "Example+Example2.yaml"} {
				if err := os.Remove(filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range []string{"widgets/v1/manual-override-crd-manifests", "widgets/v1/zz_generated.featuregated-crd-manifests/gadgets.widgets.example.io"} {
				if err := os.RemoveAll(filepath.Join(base, d)); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"six gate sets", 6, func(t *testing.T, base string) {
			extra := partialManifest("widgets.example.io", "widgets", "Widget", "v1", "Example3")
			if err := os.WriteFile(filepath.Join(base, widgetDir, "Example3.yaml"), []byte(extra), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := prepare(t, "gates")
			c.edit(t, base)
			l := load(t, base)
			res, _ := l.mustRun(t)
			if got := l.universe.Loads(); got != 1 {
				t.Errorf("package loads = %d, want 1", got)
			}
			if res.GateSets != c.gateSets {
				t.Errorf("gate sets = %d, want %d", res.GateSets, c.gateSets)
			}
		})
	}
}

// TestLegacyFeatureSetConfigIsIgnored: schemapatch.requiredFeatureSets
// only matters to the legacy FeatureSet mode; it is reported and ignored.
func TestLegacyFeatureSetConfigIsIgnored(t *testing.T) {
	base := prepare(t, "gates")
	if err := os.WriteFile(filepath.Join(base, "widgets", ".codegen.yaml"), []byte("schemapatch:\n  requiredFeatureSets:\n  - TechPreviewNoUpgrade\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := load(t, base)
	res, list, _ := l.run(t)
	problems := problemStrings(list)
	want := "warning: widgets/.codegen.yaml: schemapatch.requiredFeatureSets: only selects manifests in the legacy FeatureSet mode"
	if len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
		t.Fatalf("problems = %q, want one starting with %q", problems, want)
	}
	if res.Updated != 7 {
		t.Errorf("updated %d manifests, want 7", res.Updated)
	}
}

// TestDisabledGroup: a group whose .codegen.yaml disables schemapatch is
// left alone.
func TestDisabledGroup(t *testing.T) {
	base := prepare(t, "gates")
	if err := os.WriteFile(filepath.Join(base, "widgets", ".codegen.yaml"), []byte("schemapatch:\n  disabled: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := load(t, base)
	res, tr := l.mustRun(t)
	if res.Manifests != 0 || res.Updated != 0 {
		t.Errorf("result = %+v, want nothing processed", res)
	}
	if changes, _, _ := tr.Changes(); len(changes) != 0 {
		t.Errorf("changes = %v", changes)
	}
}

// TestSameOutputWithFilter: a kind using a type of another API group gets
// the same schema whether or not --api-group-versions selects that group
// (the other group's package is then only reached as an import).
func TestSameOutputWithFilter(t *testing.T) {
	files := thingsAPI(`
type ThingSpec struct {
	// part comes from another API group.
	// +optional
	Part other.Part `+"`json:\"part,omitempty\"`"+`
}
`, []string{""}, []string{"Example"})
	files["things/v1/types.go"] = strings.Replace(files["things/v1/types.go"],
		`import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`,
		"import (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\tother \"@ROOT@/others/v1\"\n)", 1)
	files["others/v1/doc.go"] = "// +groupName=others.example.io\npackage v1\n"
	files["others/v1/register.go"] = strings.Replace(files["things/v1/register.go"], thingsGroup, "others.example.io", 1)
	files["others/v1/types.go"] = `package v1

// Part is a piece of another group's API.
type Part struct {
	// size is always there.
	// +optional
	Size int32 ` + "`json:\"size,omitempty\"`" + `

	// shiny needs the Example gate.
	// +openshift:enable:FeatureGate=Example
	// +optional
	Shiny bool ` + "`json:\"shiny,omitempty\"`" + `
}
`
	base := write(t, files)
	outputs := map[string]map[string]string{}
	for _, filter := range [][]string{nil, {thingsGroup + "/v1"}} {
		disc, u := testload.Load(t, base, filter)
		l := &loaded{base: base, discovery: disc, universe: u}
		_, tr := l.mustRun(t)
		outputs[strings.Join(filter, ",")] = yamlFiles(t, tr, filepath.Join(base, "things"))
	}
	all, filtered := outputs[""], outputs[thingsGroup+"/v1"]
	if !reflect.DeepEqual(all, filtered) {
		t.Fatal("the things manifests differ with and without the filter")
	}
	ungated := all["v1/zz_generated.featuregated-crd-manifests/things.things.example.io/AAA_ungated.yaml"]
	gated := all["v1/zz_generated.featuregated-crd-manifests/things.things.example.io/Example.yaml"]
	if strings.Contains(ungated, "shiny") || !strings.Contains(gated, "shiny") {
		t.Errorf("the gated field of the other group's type is not gated:\nungated:\n%s\nExample:\n%s", ungated, gated)
	}
}

// TestMultiDocumentOverrideIsAnErrorAndKept: rewriting a hand-written file
// with two YAML documents would keep only the first, so stage 2 refuses it
// and leaves it untouched.
func TestMultiDocumentOverrideIsAnErrorAndKept(t *testing.T) {
	base := prepare(t, "gates")
	override := filepath.Join(base, "widgets/v1/manual-override-crd-manifests/widgets.widgets.example.io/TwoDocs.yaml")
	content := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.widgets.example.io\n---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: second\n"
	if err := os.MkdirAll(filepath.Dir(override), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(override, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	l := load(t, base)
	_, problems, tr := l.run(t)
	if err := problems.Err(); err == nil || !strings.Contains(err.Error(), "TwoDocs.yaml: holds 2 YAML documents") {
		t.Fatalf("problems = %v", err)
	}
	if got, _ := tr.ReadFile(override); string(got) != content {
		t.Fatalf("the override was rewritten:\n%s", got)
	}
}
