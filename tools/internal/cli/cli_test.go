package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// exampleTree copies the repository's example API group and payload
// FeatureGate manifests into a fresh tree inside the tools module and
// returns its path. generated keeps or drops the committed outputs.
func exampleTree(t testing.TB, generated bool) string {
	t.Helper()
	dir := testtree.Write(t, nil)
	copyDir(t, "../../../example", filepath.Join(dir, "example"))
	copyDir(t, "../../../payload-manifests/featuregates", filepath.Join(dir, "payload-manifests/featuregates"))
	if !generated {
		removeGenerated(t, dir)
	}
	return dir
}

func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	for rel, content := range testtree.Snapshot(t, src) {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func removeGenerated(t testing.TB, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "example", "*", "zz_generated.*crd-manifests*"))
	for _, m := range matches {
		if err := os.RemoveAll(m); err != nil {
			t.Fatal(err)
		}
	}
}

// codegen runs the command in-process and returns its exit status and
// stderr.
func codegen(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run("test", args, &out, &errOut)
	return code, errOut.String()
}

func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if code, stderr := codegen(t, args...); code != ExitOK {
		t.Fatalf("codegen %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
}

func generatedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for rel, content := range testtree.Snapshot(t, filepath.Join(dir, "example")) {
		if strings.Contains(rel, "zz_generated.") && !strings.HasSuffix(rel, "deepcopy.go") {
			out[rel] = content
		}
	}
	return out
}

func sameFiles(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for _, p := range testtree.Paths(want) {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: %s missing", what, p)
		} else if g != want[p] {
			t.Errorf("%s: %s differs", what, p)
		}
	}
	for _, p := range testtree.Paths(got) {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: unexpected %s", what, p)
		}
	}
}

// TestRegenerateFromScratchMatchesCommittedExample proves the committed
// example outputs are exactly what a run on a clean tree produces, and that
// running the three stage sub-commands one after another produces the same
// bytes as crd-manifests.
func TestRegenerateFromScratchMatchesCommittedExample(t *testing.T) {
	committed := generatedFiles(t, exampleTree(t, true))
	if len(committed) < 10 {
		t.Fatalf("only %d committed generated files found", len(committed))
	}

	oneProcess := exampleTree(t, false)
	mustRun(t, "crd-manifests", "--base-dir", oneProcess, "-q")
	sameFiles(t, "crd-manifests from scratch", committed, generatedFiles(t, oneProcess))

	stages := exampleTree(t, false)
	for _, sub := range []string{"empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		mustRun(t, sub, "--base-dir", stages, "-q")
	}
	sameFiles(t, "three sub-commands", committed, generatedFiles(t, stages))
}

func TestSecondRunChangesNothingAndVerifyPasses(t *testing.T) {
	dir := exampleTree(t, true)
	before := testtree.Snapshot(t, dir)
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir)
	if code != ExitOK || !strings.Contains(stderr, "0 file(s) written") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	sameFiles(t, "second run", before, testtree.Snapshot(t, dir))
	for _, sub := range []string{"crd-manifests", "empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		if code, stderr := codegen(t, sub, "--base-dir", dir, "--verify"); code != ExitOK {
			t.Errorf("%s --verify on a fresh tree: exit %d\n%s", sub, code, stderr)
		}
	}
}

// TestVerifyNeverWrites runs every verify on a read-only tree, fresh and
// stale, and checks that not a byte changed.
func TestVerifyNeverWrites(t *testing.T) {
	if os.Geteuid() == 0 {
		// root ignores permissions; the snapshot comparison still proves it.
		t.Log("running as root: read-only permissions are not enforced, comparing snapshots only")
	}
	dir := exampleTree(t, true)
	crdDir := filepath.Join(dir, "example/v1/zz_generated.featuregated-crd-manifests/stableconfigtypes.example.openshift.io")
	mergedDir := filepath.Join(dir, "example/v1/zz_generated.crd-manifests")
	// One staleness per stage: a missing partial manifest (stage 1), a
	// hand-edited schema (stage 2), a hand-edited merged manifest (stage 3).
	if err := os.Remove(filepath.Join(crdDir, "Example2.yaml")); err != nil {
		t.Fatal(err)
	}
	edit(t, filepath.Join(crdDir, "Example.yaml"), "maxItems: 3", "maxItems: 4")
	edit(t, filepath.Join(mergedDir, "0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml"), "maxItems: 1", "maxItems: 2")
	before := testtree.Snapshot(t, dir)
	setWritable(t, dir, false)
	defer setWritable(t, dir, true)
	want := map[string][]string{
		"crd-manifests":         {"Example2.yaml is missing", "Example.yaml is out of date", "stableconfigtypes-Default.crd.yaml is out of date"},
		"empty-partial-schemas": {"Example2.yaml is missing"},
		"schemapatch":           {"Example.yaml is out of date", "-                maxItems: 4", "+                maxItems: 3"},
		"crd-manifest-merge":    {"stableconfigtypes-Default.crd.yaml is out of date"},
	}
	for _, sub := range []string{"crd-manifests", "empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		code, stderr := codegen(t, sub, "--base-dir", dir, "--verify")
		if code != ExitStale {
			t.Errorf("%s --verify on a stale tree: exit %d, want %d\n%s", sub, code, ExitStale, stderr)
		}
		for _, w := range want[sub] {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s --verify report lacks %q:\n%s", sub, w, stderr)
			}
		}
	}
	sameFiles(t, "after verify", before, testtree.Snapshot(t, dir))
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func setWritable(t *testing.T, dir string, writable bool) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		if d.IsDir() {
			mode = 0o555
		}
		if writable {
			mode |= 0o200
		}
		return os.Chmod(p, mode)
	})
}

// TestDeterministicAcrossGOMAXPROCS regenerates the example from scratch
// with 1, 2 and 8 OS threads and expects identical bytes.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first map[string]string
	for _, n := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(n)
		dir := exampleTree(t, false)
		mustRun(t, "crd-manifests", "--base-dir", dir, "-q")
		got := generatedFiles(t, dir)
		if first == nil {
			first = got
			continue
		}
		sameFiles(t, fmt.Sprintf("GOMAXPROCS=%d", n), first, got)
	}
}

func TestExitStatuses(t *testing.T) {
	t.Run("usage", func(t *testing.T) {
		if code, _ := codegen(t, "crd-manifests", "--no-such-flag"); code != ExitUsage {
			t.Fatalf("exit %d, want %d", code, ExitUsage)
		}
	})
	t.Run("legacy feature sets", func(t *testing.T) {
		code, stderr := codegen(t, "schemapatch", "--required-feature-sets", "TechPreviewNoUpgrade")
		if code != ExitUsage || !strings.Contains(stderr, "legacy FeatureSet mode") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	})
	t.Run("unknown group-version", func(t *testing.T) {
		dir := exampleTree(t, true)
		code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--api-group-versions", "example.openshift.io/v2")
		if code != ExitInput || !strings.Contains(stderr, "example.openshift.io/v2 match(es) no API group-version") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	})
	t.Run("bad marker leaves the tree untouched", func(t *testing.T) {
		dir := exampleTree(t, true)
		types := filepath.Join(dir, "example/v1/types_stable.go")
		data, err := os.ReadFile(types)
		if err != nil {
			t.Fatal(err)
		}
		bad := strings.Replace(string(data), "+openshift:enable:FeatureGate=Example\n", "+openshift:enable:FeatureGates=Example\n", 1)
		if err := os.WriteFile(types, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		// The repository opts in to strict markers.
		testtree.Add(t, dir, map[string]string{".gatedcrd.yaml": "strictMarkers: true\n"})
		before := testtree.Snapshot(t, dir)
		code, stderr := codegen(t, "crd-manifests", "--base-dir", dir)
		if code != ExitInput || !strings.Contains(stderr, "types_stable.go:") || !strings.Contains(stderr, "did you mean +openshift:enable:FeatureGate?") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		sameFiles(t, "after failed run", before, testtree.Snapshot(t, dir))

		code, stderr = codegen(t, "crd-manifests", "--base-dir", dir, "--strict-markers=false")
		if code != ExitOK || !strings.Contains(stderr, "warning: ") {
			t.Fatalf("--strict-markers=false: exit %d:\n%s", code, stderr)
		}
	})
	t.Run("unknown gate", func(t *testing.T) {
		dir := exampleTree(t, true)
		types := filepath.Join(dir, "example/v1/types_stable.go")
		data, _ := os.ReadFile(types)
		bad := strings.Replace(string(data), "+openshift:enable:FeatureGate=Example\n", "+openshift:enable:FeatureGate=Exmaple\n", 1)
		if err := os.WriteFile(types, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--strict-markers")
		if code != ExitInput || !strings.Contains(stderr, `FeatureGate "Exmaple" is not listed`) || !strings.Contains(stderr, "closest known gates: Example") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	})
	t.Run("missing payload directory", func(t *testing.T) {
		dir := exampleTree(t, true)
		code, stderr := codegen(t, "crd-manifest-merge", "--base-dir", dir, "--manifest-merge:payload-manifest-path", "nowhere")
		if code != ExitInput || !strings.Contains(stderr, "nowhere") {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
	})
}

func TestVersionFlag(t *testing.T) {
	var out bytes.Buffer
	if code := Run("v1.2.3", []string{"--version"}, &out, &out); code != ExitOK || out.String() != "codegen v1.2.3\n" {
		t.Fatalf("exit %d, output %q", code, out.String())
	}
}

// TestNothingToDo runs every stage on a tree without API packages: success.
func TestNothingToDo(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"README.md": "no API here\n"})
	for _, sub := range []string{"crd-manifests", "empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		if code, stderr := codegen(t, sub, "--base-dir", dir); code != ExitOK {
			t.Errorf("%s on a tree without API packages: exit %d\n%s", sub, code, stderr)
		}
	}
}
