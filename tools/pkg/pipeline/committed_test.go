package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestValidationComparesWithCommittedFiles: in a git work tree, every
// merged CRD committed at HEAD is validated as an update of its committed
// version too, through the reader the run started before the validation
// and the committed blobs kept across runs (Keep).
func TestValidationComparesWithCommittedFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	keep := NewKeep()
	defer keep.Close()
	blobs := keep.blobs
	// The second run reads the committed files through the blobs the
	// first one kept.
	for run := range 2 {
		r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir, NoVerdictCache: true, Keep: keep})
		var seen *CRDValidation
		r.Options.OnValidated = func(v *CRDValidation) { seen = v }
		if _, err := r.Generate(); err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		if seen == nil || seen.Result.Files == 0 || seen.Result.Upgrades != seen.Result.Files {
			t.Fatalf("run %d: validation %+v: want every committed CRD file validated as an update", run, seen)
		}
		if !r.committed.taken {
			t.Errorf("run %d: the validation opened a reader of its own instead of the one the run started", run)
		}
		if blobs.Len() != seen.Result.Files {
			t.Errorf("run %d: %d committed blobs kept, want the %d files'", run, blobs.Len(), seen.Result.Files)
		}
	}
}

// TestUnusedCommittedReaderIsClosed: a run that stops before the
// validation closes the reader of HEAD it started for it.
func TestUnusedCommittedReaderIsClosed(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	types := filepath.Join(dir, "widgets", "v1", "types.go")
	data, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\tName string `") {
		t.Fatal("the corpus' Name field moved; adjust the test")
	}
	if err := os.WriteFile(types, []byte(strings.Replace(string(data), "\tName string `", "\tName undeclaredType `", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})
	if _, err := r.Generate(); err == nil {
		t.Fatal("a type error did not stop the run")
	}
	if r.committed == nil || !r.committed.taken {
		t.Errorf("the reader of HEAD was left open: %+v", r.committed)
	}
}
