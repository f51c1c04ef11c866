package discovery

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestPackageDirsOrder checks the listing read on every core: every
// directory once, parents first and in name order, without the skipped
// names (our output directories among them) and without the subtree of
// another module.
func TestPackageDirsOrder(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		"b/v1/x.go":           "package v1\n",
		"a/z/deep/more/x.go":  "package more\n",
		"a/b/x.go":            "package b\n",
		"c.go":                "package root\n",
		".hidden/x.go":        "package hidden\n",
		"_skip/x.go":          "package skip\n",
		"vendor/m/x.go":       "package m\n",
		"a/testdata/x.go":     "package testdata\n",
		"other/go.mod":        "module other\n",
		"other/inner/x.go":    "package inner\n",
		"a/z/deep/sibling.go": "package deep\n",
		// Our output directories, the doc.go of stage 3 included.
		"b/v1/zz_generated.crd-manifests/doc.go":                           "package b_v1_crdmanifests\n",
		"b/v1/zz_generated.featuregated-crd-manifests/widgets.b.io/x.yaml": "kind: CustomResourceDefinition\n",
	})
	dirs, err := packageDirs(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dirs {
		rel, _ := filepath.Rel(base, d.path)
		got = append(got, filepath.ToSlash(rel))
	}
	want := []string{".", "a", "a/b", "a/z", "a/z/deep", "a/z/deep/more", "b", "b/v1"}
	if !slices.Equal(got, want) {
		t.Errorf("directories = %v, want %v", got, want)
	}
}
