package requiredannotations

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func crd(name, group, kind, annotations string) string {
	return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n" + annotations +
		"    api.openshift.io/merged-by-featuregates: \"true\"\n  name: " + name + "\nspec:\n  group: " + group + "\n  names:\n    kind: " + kind + "\n"
}

const approved = "    api-approved.openshift.io: https://example.com/pull/1\n"

func fixture(t *testing.T) *discovery.Result {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\n// Widget is a widget.\ntype Widget struct{}\n\ntype Gadget struct{}\n",
		// Widget lacks the annotation in two of three variants.
		"v1/zz_generated.crd-manifests/w-Default.crd.yaml":              crd("widgets.example.openshift.io", "example.openshift.io", "Widget", ""),
		"v1/zz_generated.crd-manifests/w-TechPreviewNoUpgrade.crd.yaml": crd("widgets.example.openshift.io", "example.openshift.io", "Widget", ""),
		"v1/zz_generated.crd-manifests/w-OKD.crd.yaml":                  crd("widgets.example.openshift.io", "example.openshift.io", "Widget", approved),
		"v1/zz_generated.crd-manifests/gadgets.crd.yaml":                crd("gadgets.example.openshift.io", "example.openshift.io", "Gadget", approved),
		"v1/zz_generated.crd-manifests/doc.go":                          "package crdmanifests\n",
		// Partial manifests are exempt.
		"v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/AAA_ungated.yaml": crd("widgets.example.openshift.io", "example.openshift.io", "Widget", ""),
		"other/v1/zz_generated.crd-manifests/things.crd.yaml":                                      crd("things.other.example.com", "other.example.com", "Thing", ""),
	})
	return &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{
		{Name: "example.openshift.io", Dir: dir, Versions: []*discovery.Version{{Group: "example.openshift.io", Version: "v1", Dir: filepath.Join(dir, "v1"), ImportPath: "x/v1"}}},
		{Name: "other.example.com", Dir: filepath.Join(dir, "other"), Versions: []*discovery.Version{{Group: "other.example.com", Version: "v1", Dir: filepath.Join(dir, "other/v1"), ImportPath: "x/other/v1"}}},
	}}
}

func render(disc *discovery.Result, in Input) []string {
	var out []string
	for _, d := range Check(in) {
		d.File = tree.Rel(disc.BaseDir, d.File)
		out = append(out, d.String())
	}
	return out
}

func TestCheckNamesTheManifestWithoutSyntax(t *testing.T) {
	disc := fixture(t)
	got := render(disc, Input{Discovery: disc, Tree: tree.New(), Rule: repoconfig.Defaults().RequiredAnnotations})
	want := `v1/zz_generated.crd-manifests/w-Default.crd.yaml: type Widget: CRD widgets.example.openshift.io must carry the annotation api-approved.openshift.io (groups ending in ".openshift.io" require it) but zz_generated.crd-manifests/w-Default.crd.yaml (and 1 more file(s)) lacks it; add +openshift:api-approved.openshift.io=<PR URL> to the type's comment`
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestCheckPointsAtTheGoType(t *testing.T) {
	disc := fixture(t)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(disc.BaseDir, "v1/types.go"), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	// The pipeline's schema source map, in short: the kind's type
	// declaration, for the group-version of the parsed file only.
	locate := func(group, version, kind string) (string, int, bool) {
		if group != "example.openshift.io" || version != "v1" {
			return "", 0, false
		}
		for _, d := range f.Decls {
			for _, s := range d.(*ast.GenDecl).Specs {
				if ts := s.(*ast.TypeSpec); ts.Name.Name == kind {
					p := fset.Position(ts.Pos())
					return p.Filename, p.Line, true
				}
			}
		}
		return "", 0, false
	}
	in := Input{Discovery: disc, Tree: tree.New(),
		Rule:   repoconfig.RequiredAnnotations{GroupSuffix: "", Annotations: []string{"api-approved.openshift.io", "owner.example.com"}},
		Locate: locate,
	}
	got := strings.Join(render(disc, in), "\n")
	for _, want := range []string{
		`other/v1/zz_generated.crd-manifests/things.crd.yaml: type Thing: CRD things.other.example.com must carry the annotation api-approved.openshift.io (groups ending in "" require it)`,
		`v1/types.go:4: type Widget: CRD widgets.example.openshift.io must carry the annotation owner.example.com`,
		`add +kubebuilder:metadata:annotations="owner.example.com=<value>" to the type's comment`,
		`v1/types.go:6: type Gadget: CRD gadgets.example.openshift.io must carry the annotation owner.example.com`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
}

func TestCheckSeesTheRunsOutput(t *testing.T) {
	disc := fixture(t)
	tr := tree.New()
	tr.WriteFile(filepath.Join(disc.BaseDir, "v1/zz_generated.crd-manifests/w-Default.crd.yaml"), []byte(crd("widgets.example.openshift.io", "example.openshift.io", "Widget", approved)))
	tr.Remove(filepath.Join(disc.BaseDir, "v1/zz_generated.crd-manifests/w-TechPreviewNoUpgrade.crd.yaml"))
	if got := render(disc, Input{Discovery: disc, Tree: tr, Rule: repoconfig.Defaults().RequiredAnnotations}); len(got) != 0 {
		t.Fatalf("got %q", got)
	}
	if got := Check(Input{Discovery: disc, Tree: tree.New(), Rule: repoconfig.RequiredAnnotations{GroupSuffix: ".openshift.io"}}); len(got) != 0 {
		t.Fatalf("an empty annotation list checks nothing, got %v", got)
	}
}

func TestMarkerFor(t *testing.T) {
	if got := MarkerFor("capability.openshift.io/name"); got != "+openshift:capability=<capability name>" {
		t.Errorf("got %q", got)
	}
}

// TestCheckTakesHandedOverManifests: a manifest the merge handed over is
// checked as handed over, not read again from its file.
func TestCheckTakesHandedOverManifests(t *testing.T) {
	disc := fixture(t)
	dir := filepath.Join(disc.BaseDir, "v1", "zz_generated.crd-manifests")
	// Every Widget file now carries the annotation; only the handed-over
	// Default one lacks it.
	tr := tree.New()
	for _, name := range []string{"w-Default.crd.yaml", "w-TechPreviewNoUpgrade.crd.yaml"} {
		tr.WriteFile(filepath.Join(dir, name), []byte(crd("widgets.example.openshift.io", "example.openshift.io", "Widget", approved)))
	}
	obj, err := manifest.Parse([]byte(crd("widgets.example.openshift.io", "example.openshift.io", "Widget", "")))
	if err != nil {
		t.Fatal(err)
	}
	merged := []*manifestmerge.Output{{Path: filepath.Join(dir, "w-Default.crd.yaml"), Object: obj}}
	got := render(disc, Input{Discovery: disc, Tree: tr, Rule: repoconfig.Defaults().RequiredAnnotations, Merged: merged})
	if len(got) != 1 || !strings.Contains(got[0], "but zz_generated.crd-manifests/w-Default.crd.yaml lacks it") {
		t.Fatalf("got %q", got)
	}
}
