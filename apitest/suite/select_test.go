package suite

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// planShape renders a plan's batches as "file(suite,...) ..." lines.
func planShape(p *Plan) []string {
	var got []string
	for _, batch := range p.Batches {
		var names []string
		for _, v := range batch {
			var suites []string
			for _, s := range v.Suites {
				suites = append(suites, s.Path)
			}
			names = append(names, filepath.Base(v.File.Path)+"("+strings.Join(suites, ",")+")")
		}
		got = append(got, strings.Join(names, " "))
	}
	return got
}

func TestSelectKeepsOnlyTheAcceptedPairs(t *testing.T) {
	w1 := crdFile(t, "widgets-1.crd.yaml", nil)
	w2 := withSpecField(crdFile(t, "widgets-2.crd.yaml", nil), "colour") // another batch
	g1 := crdFile(t, "gadgets-1.crd.yaml", nil)
	a, b := &Suite{Path: "a.yaml"}, &Suite{Path: "b.yaml"}
	plan, err := newPlan([]pairing{
		{suite: a, file: w1, version: "v1"},
		{suite: b, file: w1, version: "v1"},
		{suite: b, file: w2, version: "v1"},
		{suite: a, file: g1, version: "v1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	bOnly := plan.Select(func(_ *Variant, s *Suite) bool { return s == b })
	if got, want := planShape(bOnly), []string{"widgets-1.crd.yaml(b.yaml)", "widgets-2.crd.yaml(b.yaml)"}; !slices.Equal(got, want) {
		t.Errorf("suite b selected:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	gadgets := plan.Select(func(v *Variant, _ *Suite) bool { return v.File == g1 })
	if got, want := planShape(gadgets), []string{"gadgets-1.crd.yaml(a.yaml)"}; !slices.Equal(got, want) {
		t.Errorf("gadgets-1 selected:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if none := plan.Select(func(*Variant, *Suite) bool { return false }); len(none.Batches) != 0 {
		t.Errorf("nothing selected left %d batches", len(none.Batches))
	}
	if len(plan.Batches[0][1].Suites) != 2 {
		t.Error("Select changed the plan it was called on")
	}
}

func TestVersionDir(t *testing.T) {
	for path, want := range map[string]string{
		"api/v1/tests/widgets.example.com/Gate.yaml":                 "api/v1",
		"api/v1/tests/widgets.example.com/x.testsuite.yaml":          "api/v1",
		"api/v1/zz_generated.crd-manifests/0000_10_widgets.crd.yaml": "api/v1",
		"api/v1/zz_generated.crd-manifests/widgets-Default.crd.yaml": "api/v1",
		"api/v1/types.go": "",
		"api/v1/tests/widgets.example.com/notes.txt":                    "",
		"api/v1/zz_generated.featuregated-crd-manifests/w/Gate.yaml":    "",
		"api/v1/manual-override-crd-manifests/widgets.example.com.yaml": "",
	} {
		got, ok := VersionDir(filepath.FromSlash(path))
		if ok != (want != "") || got != filepath.FromSlash(want) {
			t.Errorf("VersionDir(%s) = %q, %v; want %q", path, got, ok, want)
		}
	}
}
