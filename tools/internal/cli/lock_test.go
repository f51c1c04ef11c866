package cli

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// TestOneShotHoldsTheWriteLockForTheWholeRun checks that a writing
// crd-manifests run takes the tree's write lock before it reads the tree,
// not only for its write: while codegen watch holds the lock for a cycle
// (here the test holds it), the run waits, and a source edit made while
// it waits is in what it writes. Had the run read the tree first, it
// would write files generated from the sources before the edit, next to
// the watch's newer ones: a mixed tree.
func TestOneShotHoldsTheWriteLockForTheWholeRun(t *testing.T) {
	dir, held, done, stderr := runWhileLocked(t)
	// The run says it waits once it has waited a moment; with the lock
	// taken at its start, it has read nothing yet.
	for !strings.Contains(stderr.String(), "waiting for another codegen run") {
		select {
		case code := <-done:
			t.Fatalf("the run did not wait for the lock (exit %d)\n%s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	edit(t, filepath.Join(dir, "example/v1/types_stable.go"), "on every cluster", "on every single cluster")
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	want := exampleTree(t, false)
	edit(t, filepath.Join(want, "example/v1/types_stable.go"), "on every cluster", "on every single cluster")
	mustRun(t, "crd-manifests", "--base-dir", want)
	sameFiles(t, "the run that waited", generatedFiles(t, want), generatedFiles(t, dir))
}

// TestQuietRunWaitsForTheLockSilently checks that -q keeps the run's
// "waiting for another codegen run" line off standard error (it is
// progress, and -q prints errors and results only), while the run still
// waits for the lock.
func TestQuietRunWaitsForTheLockSilently(t *testing.T) {
	_, held, done, stderr := runWhileLocked(t, "-q")
	// Longer than the moment after which a run says it waits.
	time.Sleep(time.Second)
	select {
	case code := <-done:
		t.Fatalf("the run did not wait for the lock (exit %d)\n%s", code, stderr.String())
	default:
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	if code := <-done; code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if got := stderr.String(); got != "" {
		t.Errorf("a -q run printed on standard error:\n%s", got)
	}
}

// runWhileLocked copies the example tree, takes its write lock as a
// running codegen watch would, and starts a writing crd-manifests run on
// it with the extra arguments; the run's exit status arrives on done.
func runWhileLocked(t *testing.T, args ...string) (dir string, held *pipeline.WriteLock, done chan int, stderr *syncWriter) {
	t.Helper()
	t.Setenv("GATEDCRD_CACHE", t.TempDir())
	dir = exampleTree(t, false)
	held, err := pipeline.LockWrites(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	stderr = &syncWriter{}
	done = make(chan int, 1)
	go func() {
		done <- Run("test", append([]string{"crd-manifests", "--base-dir", dir}, args...), &syncWriter{}, stderr)
	}()
	return dir, held, done, stderr
}
