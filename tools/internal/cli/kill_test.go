package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestKilledRunLeavesEveryFileOldOrNew builds codegen, starts it on a tree
// from scratch, kills it (SIGKILL) after increasing delays and checks that
// every file is then either its content before the run or its content after
// a complete run: never a mixture, never truncated. A final complete run
// must reach exactly the expected tree.
func TestKilledRunLeavesEveryFileOldOrNew(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the codegen binary")
	}
	bin := filepath.Join(t.TempDir(), "codegen")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, "../../cmd/codegen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building codegen: %v\n%s", err, out)
	}

	want := generatedFiles(t, exampleTree(t, true))
	for _, delay := range []time.Duration{5, 50, 150, 250, 350, 450, 600, 800} {
		dir := exampleTree(t, false)
		// Stale content the run must replace, so "old" is observable too.
		stale := filepath.Join(dir, "example/v1/zz_generated.featuregated-crd-manifests.yaml")
		if err := os.WriteFile(stale, []byte("stale: true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := generatedFiles(t, dir)

		cmd := exec.Command(bin, "crd-manifests", "--base-dir", dir, "-q")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay * time.Millisecond)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		for rel, content := range generatedFiles(t, dir) {
			if strings.Contains(filepath.Base(rel), ".tmp-") {
				continue // a staged file not yet renamed: swept by the next write
			}
			if content != want[rel] && content != before[rel] {
				t.Errorf("after a kill at %v: %s is neither its old nor its new content", delay*time.Millisecond, rel)
			}
		}
		if out, err := exec.Command(bin, "crd-manifests", "--base-dir", dir, "-q").CombinedOutput(); err != nil {
			t.Fatalf("run after a kill at %v: %v\n%s", delay*time.Millisecond, err, out)
		}
		sameFiles(t, "complete run after a kill", want, generatedFiles(t, dir))
	}
}
