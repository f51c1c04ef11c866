package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommitStagesEveryFile commits many files at once, in directories
// that exist and in new ones, over leftover temporary files of some of
// them and of a file the commit does not write: every file has its
// content, the leftovers of the files written are swept, the other
// stays, and no temporary file of the commit remains.
func TestCommitStagesEveryFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "old", "f0.yaml"), "old\n")
	write(t, filepath.Join(dir, "old", ".f1.yaml.tmp-1"), "half")
	write(t, filepath.Join(dir, "old", ".f2.yaml.tmp-2"), "half")
	write(t, filepath.Join(dir, "old", ".other.yaml.tmp-3"), "someone else's")
	tr := New()
	want := map[string]string{}
	for _, sub := range []string{"old", "new", filepath.Join("new", "deeper")} {
		for i := range 20 {
			p := filepath.Join(dir, sub, fmt.Sprintf("f%d.yaml", i))
			want[p] = fmt.Sprintf("%s %d\n", sub, i)
			tr.WriteFile(p, []byte(want[p]))
		}
	}
	st, err := tr.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if st.Written != len(want) {
		t.Errorf("%d written, want %d", st.Written, len(want))
	}
	for p, content := range want {
		if got := read(t, p); got != content {
			t.Errorf("%s = %q, want %q", p, got, content)
		}
	}
	var temps []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			temps = append(temps, d.Name())
		}
		return nil
	})
	if len(temps) != 1 || temps[0] != ".other.yaml.tmp-3" {
		t.Errorf("temporary files after the commit: %v, want only .other.yaml.tmp-3", temps)
	}
}

// TestRenameAllRenamesAroundAFailure: a rename that fails (its temporary
// file vanished) leaves its target as it was, the other files are still
// renamed into place, and the error returned is the first failing file's.
func TestRenameAllRenamesAroundAFailure(t *testing.T) {
	dir := t.TempDir()
	var staged []stagedFile
	for i := range 6 {
		target := filepath.Join(dir, fmt.Sprintf("f%d.yaml", i))
		write(t, target, "old\n")
		tmp := filepath.Join(dir, fmt.Sprintf(".f%d.yaml.tmp-1", i))
		if i != 2 && i != 4 {
			write(t, tmp, "new\n")
		}
		staged = append(staged, stagedFile{tmp: tmp, target: target})
	}
	err := renameAll(staged)
	if err == nil || !strings.Contains(err.Error(), ".f2.yaml.tmp-1") {
		t.Fatalf("renameAll = %v, want the error of f2.yaml", err)
	}
	for i, f := range staged {
		want := "new\n"
		if i == 2 || i == 4 {
			want = "old\n"
		}
		if got := read(t, f.target); got != want {
			t.Errorf("%s = %q, want %q", filepath.Base(f.target), got, want)
		}
		if _, err := os.Stat(f.tmp); !os.IsNotExist(err) {
			t.Errorf("%s remains", filepath.Base(f.tmp))
		}
	}
}
