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
