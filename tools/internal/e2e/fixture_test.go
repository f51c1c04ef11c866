package e2e

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pmezard/go-difflib/difflib"
	"golang.org/x/mod/modfile"
)

// update rewrites the golden files of the operator repository fixture:
//
//	go test ./internal/e2e -run Operator -update
var update = flag.Bool("update", false, "rewrite the generated files committed in testdata/operatorrepo")

// fixtureDir is an operator repository with its generated files committed,
// as a real one has them; those generated files are the golden files.
const fixtureDir = "testdata/operatorrepo"

// fixtureGV is the fixture's one group-version, relative to the repository.
const fixtureGV = "api/fleet/v1beta1"

// generated reports whether rel (slash-separated, relative to the
// repository) is written by codegen, i.e. a golden file.
func generated(rel string) bool {
	rest, ok := strings.CutPrefix(rel, fixtureGV+"/")
	if !ok {
		return false
	}
	return rest == "zz_generated.featuregated-crd-manifests.yaml" ||
		strings.HasPrefix(rest, "zz_generated.featuregated-crd-manifests/") ||
		strings.HasPrefix(rest, "zz_generated.crd-manifests/")
}

// vendored reports whether rel lies in the vendor directory, which the test
// creates with `go mod vendor` instead of committing apimachinery's source.
func vendored(rel string) bool { return strings.HasPrefix(rel, "api/vendor/") }

// readTree returns every regular file below dir by slash-separated relative
// path, leaving out those skip selects.
func readTree(t *testing.T, dir string, skip func(string) bool) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func writeTree(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// buildCodegen builds the codegen command of this checkout once per test.
func buildCodegen(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "codegen")
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "./cmd/codegen")
	cmd.Dir = filepath.Join(repoRoot(t), "tools")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building codegen: %v\n%s", err, out)
	}
	return bin
}

// fixtureEnv is the environment of the go command and of codegen in the
// fixture: no workspace, and none of the caller's GOFLAGS but -modcacherw,
// so that -mod=mod cannot make the go command ignore the vendor directory.
func fixtureEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS="+goflags())
}

// checkFixtureVersion keeps the fixture's apimachinery at the version
// codegen links: the Kubernetes release codegen validates against is
// inferred from it, and another release would mean building a
// separate validation program, minutes per run.
func checkFixtureVersion(t *testing.T) {
	t.Helper()
	version := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := modfile.ParseLax(path, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.Require {
			if r.Mod.Path == "k8s.io/apimachinery" {
				return r.Mod.Version
			}
		}
		t.Fatalf("%s does not require k8s.io/apimachinery", path)
		return ""
	}
	want := version(filepath.Join(repoRoot(t), "tools", "go.mod"))
	if got := version(filepath.Join(fixtureDir, "api", "go.mod")); got != want {
		t.Fatalf("%s/api/go.mod requires k8s.io/apimachinery %s, tools/go.mod %s; run in %s/api: go get k8s.io/apimachinery@%s && go mod tidy",
			fixtureDir, got, want, fixtureDir, want)
	}
}

// vendoredFixture copies the fixture without its generated files and runs
// `go mod vendor` in the copy, as an operator repository commits vendor/.
// The modules come from the module proxy or cache and are checked against
// the committed go.sum.
func vendoredFixture(t *testing.T) (dir string, golden map[string][]byte) {
	t.Helper()
	checkFixtureVersion(t)
	all := readTree(t, fixtureDir, nil)
	source, golden := map[string][]byte{}, map[string][]byte{}
	for rel, data := range all {
		if generated(rel) {
			golden[rel] = data
		} else {
			source[rel] = data
		}
	}
	dir = t.TempDir()
	writeTree(t, dir, source)
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "mod", "vendor")
	cmd.Dir = filepath.Join(dir, "api")
	cmd.Env = fixtureEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go mod vendor: %v\n%s", err, out)
	}
	return dir, golden
}

// compareTree fails unless dir holds exactly the fixture's files: its
// sources unchanged and the golden generated files, byte for byte, and no
// other file. With rewrite it rewrites the goldens instead (only they).
func compareTree(t *testing.T, dir string, golden map[string][]byte, rewrite bool) {
	t.Helper()
	got := readTree(t, dir, vendored)
	want := readTree(t, fixtureDir, func(rel string) bool { return generated(rel) })
	for _, rel := range sortedKeys(got) {
		data := got[rel]
		if !generated(rel) {
			continue
		}
		delete(got, rel)
		if rewrite {
			continue
		}
		if g, ok := golden[rel]; !ok {
			t.Errorf("%s: written, but no such golden file", rel)
		} else if !bytes.Equal(g, data) {
			t.Errorf("%s differs from the golden file (rerun with -update and review the diff):\n%s", rel, diff(g, data))
		}
		delete(golden, rel)
	}
	if rewrite {
		updateGoldens(t, dir)
	} else {
		for _, rel := range sortedKeys(golden) {
			t.Errorf("%s: golden file not written", rel)
		}
	}
	for _, rel := range sortedKeys(got) {
		if w, ok := want[rel]; !ok {
			t.Errorf("%s: written, but codegen writes no such file", rel)
		} else if !bytes.Equal(w, got[rel]) {
			t.Errorf("%s: a source file changed", rel)
		}
	}
	for _, rel := range sortedKeys(want) {
		if _, ok := got[rel]; !ok {
			t.Errorf("%s: removed", rel)
		}
	}
}

// updateGoldens replaces the fixture's generated files by dir's.
func updateGoldens(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"zz_generated.featuregated-crd-manifests", "zz_generated.featuregated-crd-manifests.yaml", "zz_generated.crd-manifests"} {
		if err := os.RemoveAll(filepath.Join(fixtureDir, fixtureGV, name)); err != nil {
			t.Fatal(err)
		}
	}
	writeTree(t, fixtureDir, readTree(t, dir, func(rel string) bool { return !generated(rel) }))
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// diff is a unified diff from the golden file to the written one.
func diff(golden, got []byte) string {
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(string(golden)), B: difflib.SplitLines(string(got)),
		FromFile: "golden", ToFile: "written", Context: 2,
	})
	if err != nil {
		return err.Error()
	}
	return text
}
