package gatelifecycle

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
)

var update = flag.Bool("update", false, "rewrite testdata/*.md from the current rendering")

func parseSchema(t *testing.T, src string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDiffSchema: what a gated schema adds to the ungated one, node by
// node; an added property is one change, not one per descendant.
func TestDiffSchema(t *testing.T) {
	const ungated = `
type: object
properties:
  mode: {type: string, enum: [A, B]}
  free: {type: string}
  list: {type: array, maxItems: 1, items: {type: object, properties: {name: {type: string}}}}
  labels: {type: object, additionalProperties: {type: string}}
x-kubernetes-validations:
- {rule: "self.a == 1"}
`
	cases := []struct {
		name, gated string
		want        []found
	}{
		{"identical", ungated, nil},
		{"new nested field once", `
type: object
properties:
  extra: {type: object, properties: {deep: {type: string}}}
x-kubernetes-validations: [{rule: "self.a == 1"}]
`, []found{{path: ".extra", serverPath: ".properties[extra]", what: Field, detail: "added (object)", marker: markerdefs.EnableFeatureGateName}}},
		{"enum values added and dropped", `
type: object
properties:
  mode: {type: string, enum: [A, C]}
`, []found{{path: ".mode", serverPath: ".properties[mode]", what: Enum, detail: "adds `C`; drops `B`", marker: markerdefs.GateAwareEnumName}}},
		{"enum where there was none", `
type: object
properties:
  free: {type: string, enum: [X]}
`, []found{{path: ".free", serverPath: ".properties[free]", what: Enum, detail: "restricted to `X`", marker: markerdefs.GateAwareEnumName}}},
		{"no enum in the gated file changes nothing", `
type: object
properties:
  mode: {type: string}
`, nil},
		{"rule added at the root, existing rule kept", `
type: object
x-kubernetes-validations: [{rule: "self.a == 1"}, {rule: "self.b || self.c"}]
`, []found{{path: ".", what: Rule, detail: "`self.b || self.c`", marker: markerdefs.GateAwareXValidationNm, rule: "self.b || self.c"}}},
		{"maxItems changed, field in items added", `
type: object
properties:
  list: {type: array, maxItems: 3, items: {type: object, properties: {name: {type: string}, size: {type: integer}}}}
`, []found{
			{path: ".list[*].size", serverPath: ".properties[list].items.properties[size]", what: Field, detail: "added (integer)", marker: markerdefs.EnableFeatureGateName},
			{path: ".list", serverPath: ".properties[list]", what: MaxItems, detail: "maxItems 1 → 3", marker: markerdefs.GateAwareMaxItemsName},
		}},
		{"map values", `
type: object
properties:
  labels: {type: object, additionalProperties: {type: string, enum: [x]}}
`, []found{{path: ".labels{*}", serverPath: ".properties[labels].additionalProperties", what: Enum, detail: "restricted to `x`", marker: markerdefs.GateAwareEnumName}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []found
			diffSchema(parseSchema(t, ungated), parseSchema(t, c.gated), "", "", &got)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n  %+v\nwant\n  %+v", got, c.want)
			}
		})
	}
}

// exampleCRDs is a CRD with an ungated manifest, two gates and their
// combination, and a CRD gated as a whole.
func exampleCRDs() ([]*partialschemas.CRD, map[string]string) {
	manifestOf := func(props string) string {
		return "spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n" + props
	}
	files := map[string]string{
		"/t/a/AAA_ungated.yaml": manifestOf("          a: {type: string}\n"),
		"/t/a/G1.yaml":          manifestOf("          a: {type: string}\n          g1: {type: string}\n"),
		"/t/a/G2.yaml":          manifestOf("          a: {type: string, enum: [x]}\n          shared: {type: string}\n"),
		"/t/a/G1+G2.yaml":       manifestOf("          a: {type: string}\n          g1: {type: string}\n          both: {type: string}\n"),
		"/t/b/G1.yaml":          manifestOf("          b: {type: string}\n"),
	}
	crds := []*partialschemas.CRD{
		{Name: "as.x.io", Group: "x.io", Version: "v1", Kind: "A", File: "api/a.go", Line: 3, Manifests: []*partialschemas.PartialManifest{
			{Entry: "", GateNames: []string{""}, Path: "/t/a/AAA_ungated.yaml"},
			{Entry: "G1", GateNames: []string{"G1"}, Path: "/t/a/G1.yaml"},
			{Entry: "G1+G2", GateNames: []string{"G1", "G2"}, Path: "/t/a/G1+G2.yaml"},
			{Entry: "G2", GateNames: []string{"G2"}, Path: "/t/a/G2.yaml"},
		}},
		{Name: "bs.x.io", Group: "x.io", Version: "v1", Kind: "B", File: "api/b.go", Line: 9, TopLevelGates: []string{"G1"}, Manifests: []*partialschemas.PartialManifest{
			{Entry: "G1", GateNames: []string{"G1"}, Path: "/t/b/G1.yaml"},
		}},
	}
	return crds, files
}

func collectExample(t *testing.T) map[string][]Change {
	t.Helper()
	crds, files := exampleCRDs()
	in := Input{BaseDir: "/t", CRDs: crds,
		Files: manifest.NewReader(mapFiles(files), nil),
		// A field gate naming G1 or G2 and a G2 enum are on line 42 of
		// the kind's file; nothing else is found.
		Locate: func(group, version, kind, path, name string, match func(any) bool) (string, int, bool) {
			if path == rootPath+".properties[both]" {
				return "", 0, false
			}
			if match(markerdefs.EnableFeatureGate{"G1"}) || match(markerdefs.EnableFeatureGate{"G2"}) ||
				match(markerdefs.GateAwareEnum{FeatureGate: []string{"G2"}}) {
				return "/t/api/" + strings.ToLower(kind) + ".go", 42, true
			}
			return "", 0, false
		},
	}
	got, err := Collect(in)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestCollect: changes per gate; the combination lists only what neither
// gate brings alone, under both gates; a type-gated CRD is one change.
func TestCollect(t *testing.T) {
	got := collectExample(t)
	c := func(crd, kind, path string, what What, detail string, with []string, file string, line int) Change {
		return Change{CRD: crd, Group: "x.io", Version: "v1", Kind: kind, Path: path, What: what, Detail: detail, With: with, File: file, Line: line}
	}
	want := map[string][]Change{
		"G1": {
			c("as.x.io", "A", ".both", Field, "added (string)", []string{"G2"}, "", 0),
			c("as.x.io", "A", ".g1", Field, "added (string)", nil, "api/a.go", 42),
			c("bs.x.io", "B", "", WholeCRD, "exists only with the gate", nil, "api/b.go", 42),
		},
		"G2": {
			c("as.x.io", "A", ".a", Enum, "restricted to `x`", nil, "api/a.go", 42),
			c("as.x.io", "A", ".both", Field, "added (string)", []string{"G1"}, "", 0),
			c("as.x.io", "A", ".shared", Field, "added (string)", nil, "api/a.go", 42),
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// TestRenderGolden renders the pages of TestCollect's changes with a payload
// directory in which G1 is on in TechPreviewNoUpgrade from version 5 and
// Stale is on nowhere, and compares them with testdata/.
func TestRenderGolden(t *testing.T) {
	d := &payload.Directory{Manifests: []payload.Manifest{
		{ClusterProfile: "SelfManagedHA", FeatureSet: "Default", Versions: []int{4, 5}, Disabled: names("G1", "G2", "Stale")},
		{ClusterProfile: "SelfManagedHA", FeatureSet: "TechPreviewNoUpgrade", Versions: []int{4}, Enabled: names("G2"), Disabled: names("G1", "Stale")},
		{ClusterProfile: "SelfManagedHA", FeatureSet: "TechPreviewNoUpgrade", Versions: []int{5}, Enabled: names("G1", "G2"), Disabled: names("Stale")},
		{ClusterProfile: "Hypershift", FeatureSet: "Default", Versions: []int{4, 5}, Enabled: names("G2"), Disabled: names("G1", "Stale")},
		{ClusterProfile: "Hypershift", FeatureSet: "TechPreviewNoUpgrade", Versions: []int{4, 5}, Enabled: names("G1", "G2"), Disabled: names("Stale")},
	}}
	pages := Render("docs/gates", collectExample(t), d)
	if len(pages) != 3 {
		t.Fatalf("pages %v, want G1, G2 and Stale", keys(pages))
	}
	for name, data := range pages {
		golden := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(golden, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if string(want) != string(data) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, golden, data)
		}
	}
	again := Render("docs/gates", collectExample(t), d)
	if !reflect.DeepEqual(pages, again) {
		t.Error("two renderings differ")
	}
}

func names(gates ...string) []featuregate.FeatureGateName {
	out := make([]featuregate.FeatureGateName, len(gates))
	for i, g := range gates {
		out[i] = featuregate.FeatureGateName(g)
	}
	return out
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// mapFiles reads files from a map.
type mapFiles map[string]string

func (m mapFiles) ReadFile(p string) ([]byte, error) { return []byte(m[p]), nil }

// TestCollectTakesHandedOverFiles: the manifests stage 2 handed over are
// taken as they are; their files (broken here) are not read again.
func TestCollectTakesHandedOverFiles(t *testing.T) {
	crds, files := exampleCRDs()
	var handed []*manifest.File
	broken := mapFiles{}
	for p, data := range files {
		obj, err := manifest.Parse([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		handed = append(handed, &manifest.File{Path: p, Data: []byte(data), Object: obj})
		broken[p] = "{"
	}
	got, err := Collect(Input{BaseDir: "/t", CRDs: crds, Files: manifest.NewReader(broken, handed)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Collect(Input{BaseDir: "/t", CRDs: crds, Files: manifest.NewReader(mapFiles(files), nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Fatalf("handed over:\n%v\nread:\n%v", got, want)
	}
}
