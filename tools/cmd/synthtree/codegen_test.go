package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
)

// TestCodegenAcceptsTree runs codegen on a fifth-size tree: strict mode
// must accept it, the outputs must be what synthtree predicts, and a second
// run must find nothing stale.
func TestCodegenAcceptsTree(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	dir, c := generateTree(t, 1, 5)
	var out, errOut bytes.Buffer
	if code := cli.Run("test", []string{"crd-manifests", "--base-dir", dir}, &out, &errOut); code != 0 {
		t.Fatalf("codegen crd-manifests: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	count := func(pattern string) int {
		m, err := filepath.Glob(filepath.Join(dir, "*", "*", pattern))
		if err != nil {
			t.Fatal(err)
		}
		return len(m)
	}
	if got := count("zz_generated.featuregated-crd-manifests/*/*.yaml"); got != c.PartialManifests {
		t.Errorf("codegen wrote %d partial manifests; synthtree predicted %d", got, c.PartialManifests)
	}
	if got := count("zz_generated.crd-manifests/*.crd.yaml"); got != c.MergedFiles {
		t.Errorf("codegen wrote %d merged manifests; synthtree predicted %d", got, c.MergedFiles)
	}
	out.Reset()
	errOut.Reset()
	if code := cli.Run("test", []string{"crd-manifests", "--base-dir", dir, "--verify"}, &out, &errOut); code != 0 {
		t.Fatalf("codegen crd-manifests --verify after an update: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}
