package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestWriteWaitsForTheWriteLock checks that a one-shot run's write waits
// while another holder (codegen watch, for a cycle) has the tree's write
// lock, and goes on once it is released: while the lock is held, not one
// generated file reaches the disk.
func TestWriteWaitsForTheWriteLock(t *testing.T) {
	t.Setenv("GATEDCRD_CACHE", t.TempDir())
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	generated := func() []string {
		var out []string
		for rel := range testtree.Snapshot(t, dir) {
			if strings.Contains(rel, "zz_generated.") && !strings.HasSuffix(rel, ".go") {
				out = append(out, rel)
			}
		}
		return out
	}
	for _, rel := range generated() {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			t.Fatal(err)
		}
	}
	held, err := LockWrites(filepath.Join(dir, "."), nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	generatedAt := make(chan struct{})
	go func() {
		r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})
		changes, err := r.Generate()
		close(generatedAt)
		if err != nil {
			done <- err
			return
		}
		done <- changes.Write()
	}()
	<-generatedAt
	select {
	case err := <-done:
		t.Fatalf("the write did not wait for the lock (error %v)", err)
	case <-time.After(time.Second):
	}
	if files := generated(); len(files) > 0 {
		t.Fatalf("written while the lock was held: %v", files)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the write did not go on once the lock was released")
	}
	if len(generated()) == 0 {
		t.Fatal("nothing was written")
	}
}

// TestWriteLockPathIsPerModule checks that runs with different base
// directories inside one module share one lock, and that another module
// has another.
func TestWriteLockPathIsPerModule(t *testing.T) {
	t.Setenv("GATEDCRD_CACHE", t.TempDir())
	root := t.TempDir()
	for _, p := range []string{"a/go.mod", "a/api/v1/x.go", "b/go.mod"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := func(rel string) string {
		p, err := WriteLockPath(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if path("a") != path("a/api/v1") {
		t.Error("two base directories of one module have different locks")
	}
	if path("a") == path("b") {
		t.Error("two modules share a lock")
	}
}
