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

// TestOneProcessEqualsThreeSubcommands: on a multi-group tree with
// cross-package types, overrides and version-split gates, crd-manifests
// writes byte for byte what empty-partial-schemas, schemapatch and
// crd-manifest-merge write when run one after another.
func TestOneProcessEqualsThreeSubcommands(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with the go command")
	}
	run := func(dir string, args ...string) {
		t.Helper()
		var out bytes.Buffer
		if code := cli.Run("test", append(args, "--base-dir", dir, "-q"), &out, &out); code != 0 {
			t.Fatalf("codegen %v: exit %d\n%s", args, code, out.String())
		}
	}
	one, _ := generateTree(t, 3, 4)
	three, _ := generateTree(t, 3, 4)
	run(one, "crd-manifests")
	for _, sub := range []string{"empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		run(three, sub)
	}
	a, b := readTree(t, one), readTree(t, three)
	generated := 0
	for p, data := range a {
		if !bytes.Equal(data, b[p]) {
			t.Errorf("%s differs between crd-manifests and the three sub-commands", p)
		}
		if bytes.Contains([]byte(p), []byte("zz_generated.crd-manifests/")) {
			generated++
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			t.Errorf("%s written only by the three sub-commands", p)
		}
	}
	if generated < 20 {
		t.Fatalf("only %d merged files generated; the tree is too small to prove anything", generated)
	}
}
