package tree

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestOverlayReadsPendingBeforeDisk(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.yaml"), "disk\n")
	tr := New()
	tr.WriteFile(filepath.Join(dir, "a.yaml"), []byte("new\n"))
	got, err := tr.ReadFile(filepath.Join(dir, "a.yaml"))
	if err != nil || string(got) != "new\n" {
		t.Fatalf("ReadFile = %q, %v; want pending content", got, err)
	}
	if read(t, filepath.Join(dir, "a.yaml")) != "disk\n" {
		t.Fatal("WriteFile touched the disk before Commit")
	}
	tr.Remove(filepath.Join(dir, "a.yaml"))
	if _, err := tr.ReadFile(filepath.Join(dir, "a.yaml")); !os.IsNotExist(err) {
		t.Fatalf("ReadFile after Remove: err = %v, want not-exist", err)
	}
}

func TestReadDirMergesDiskAndPending(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "keep.yaml"), "x")
	write(t, filepath.Join(dir, "gone.yaml"), "x")
	write(t, filepath.Join(dir, "olddir", "f.yaml"), "x")
	tr := New()
	tr.Remove(filepath.Join(dir, "gone.yaml"))
	tr.RemoveAll(filepath.Join(dir, "olddir"))
	tr.WriteFile(filepath.Join(dir, "new.yaml"), []byte("x"))
	tr.WriteFile(filepath.Join(dir, "sub", "deep", "f.yaml"), []byte("x"))
	got, err := tr.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"keep.yaml", false}, {"new.yaml", false}, {"sub", true}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadDir = %v, want %v", got, want)
	}
	if _, err := tr.ReadDir(filepath.Join(dir, "olddir")); !os.IsNotExist(err) {
		t.Fatalf("ReadDir of removed dir: %v", err)
	}
	if _, err := tr.ReadDir(filepath.Join(dir, "nothing")); !os.IsNotExist(err) {
		t.Fatalf("ReadDir of missing dir: %v", err)
	}
	if isDir, _ := tr.Stat(filepath.Join(dir, "sub")); !isDir {
		t.Fatal("pending file's parent should be a directory")
	}
}

func TestChangesAndCommit(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "same.yaml"), "same\n")
	write(t, filepath.Join(dir, "old.yaml"), "old\n")
	write(t, filepath.Join(dir, "stale.yaml"), "x\n")
	write(t, filepath.Join(dir, "staledir", "a.yaml"), "x\n")
	if err := os.Chmod(filepath.Join(dir, "old.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr := New()
	tr.WriteFile(filepath.Join(dir, "same.yaml"), []byte("same\n"))
	tr.WriteFile(filepath.Join(dir, "old.yaml"), []byte("new\n"))
	tr.WriteFile(filepath.Join(dir, "created", "c.yaml"), []byte("c\n"))
	tr.Remove(filepath.Join(dir, "stale.yaml"))
	tr.RemoveAll(filepath.Join(dir, "staledir"))

	changes, st, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range changes {
		kinds = append(kinds, Rel(dir, c.Path)+"="+c.Kind.String())
	}
	wantKinds := []string{"created/c.yaml=create", "old.yaml=update", "stale.yaml=delete", "staledir=delete directory"}
	if !reflect.DeepEqual(kinds, wantKinds) {
		t.Fatalf("changes = %v, want %v", kinds, wantKinds)
	}
	if st != (Stats{Written: 2, Unchanged: 1, Removed: 2}) {
		t.Fatalf("stats = %+v", st)
	}
	report := Describe(changes, dir)
	for _, want := range []string{"created/c.yaml is missing", "old.yaml is out of date", "-old", "+new", "stale.yaml should not exist", "staledir/ is stale"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}

	if _, err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "old.yaml")) != "new\n" || read(t, filepath.Join(dir, "created", "c.yaml")) != "c\n" {
		t.Fatal("commit did not write new content")
	}
	if info, _ := os.Stat(filepath.Join(dir, "old.yaml")); info.Mode().Perm() != 0o600 {
		t.Fatalf("updated file mode = %v, want 0600 kept", info.Mode().Perm())
	}
	if info, _ := os.Stat(filepath.Join(dir, "created", "c.yaml")); info.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode = %v, want 0644", info.Mode().Perm())
	}
	for _, gone := range []string{"stale.yaml", "staledir"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s still exists after commit", gone)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	if changes, _, _ := tr.Changes(); len(changes) != 0 {
		t.Fatalf("changes after commit: %v", changes)
	}
}

func TestRemoveAllThenRewriteKeepsNewFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "crd", "A.yaml"), "a\n")
	write(t, filepath.Join(dir, "crd", "B.yaml"), "b\n")
	tr := New()
	tr.RemoveAll(filepath.Join(dir, "crd"))
	tr.WriteFile(filepath.Join(dir, "crd", "A.yaml"), []byte("a2\n"))
	if _, err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dir, "crd", "A.yaml")) != "a2\n" {
		t.Fatal("rewritten file lost")
	}
	if _, err := os.Stat(filepath.Join(dir, "crd", "B.yaml")); !os.IsNotExist(err) {
		t.Fatal("file of removed directory survived")
	}
}

func TestVerifyNeverWrites(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.yaml"), "a\n")
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	tr := New()
	tr.WriteFile(filepath.Join(dir, "a.yaml"), []byte("b\n"))
	tr.WriteFile(filepath.Join(dir, "new.yaml"), []byte("b\n"))
	changes, _, err := tr.Changes()
	if err != nil || len(changes) != 2 {
		t.Fatalf("Changes on read-only dir = %v, %v", changes, err)
	}
}

// TestCommitFailureLeavesDiskUntouched injects a failure into the last write
// of a commit (a directory stands where the file must go): no other file may
// change and no temporary file may remain.
func TestCommitFailureLeavesDiskUntouched(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.yaml"), "old a\n")
	write(t, filepath.Join(dir, "z.yaml", "blocker"), "x")
	write(t, filepath.Join(dir, "gone.yaml"), "keep me\n")
	tr := New()
	tr.WriteFile(filepath.Join(dir, "a.yaml"), []byte("new a\n"))
	tr.WriteFile(filepath.Join(dir, "m", "new.yaml"), []byte("new\n"))
	tr.WriteFile(filepath.Join(dir, "z.yaml"), []byte("cannot\n"))
	tr.Remove(filepath.Join(dir, "gone.yaml"))
	if _, err := tr.Commit(); err == nil || !strings.Contains(err.Error(), "is a directory where a file is expected") {
		t.Fatalf("Commit error = %v", err)
	}
	if got := read(t, filepath.Join(dir, "a.yaml")); got != "old a\n" {
		t.Errorf("a.yaml = %q, want the old content", got)
	}
	if got := read(t, filepath.Join(dir, "gone.yaml")); got != "keep me\n" {
		t.Errorf("gone.yaml removed despite the failed commit")
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, "new.yaml") {
			t.Errorf("new file written despite the failed commit: %s", p)
		}
		if err == nil && d.IsDir() && d.Name() == "m" {
			t.Errorf("directory created by the failed commit remains: %s", p)
		}
		return nil
	})
}

func TestWriteSweepsLeftoverTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".a.yaml.tmp-123"), "half")
	write(t, filepath.Join(dir, ".b.yaml.tmp-456"), "someone else's")
	if err := WriteFileAtomic(filepath.Join(dir, "a.yaml"), []byte("a\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".a.yaml.tmp-123")); !os.IsNotExist(err) {
		t.Error("leftover temporary file of a.yaml not swept")
	}
	if _, err := os.Stat(filepath.Join(dir, ".b.yaml.tmp-456")); err != nil {
		t.Error("temporary file of another target removed")
	}
}

// TestWriteOfDiskContentSharesTheBytesRead proves that writing what the
// disk holds, as read already, keeps one copy (the bytes read) rather than
// two, that the writer's slice stays its own, and that the file is still
// no change.
func TestWriteOfDiskContentSharesTheBytesRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	write(t, path, "same\n")
	tr := New()
	disk, err := tr.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mine := []byte("same\n")
	kept := tr.WriteFile(path, mine)
	mine[0] = 'X'
	got, err := tr.ReadFile(path)
	if err != nil || string(got) != "same\n" {
		t.Fatalf("ReadFile = %q, %v; want the written content", got, err)
	}
	if &got[0] != &disk[0] || &kept[0] != &disk[0] {
		t.Error("the written content is a second copy of the bytes read")
	}
	// Other content is copied, and WriteFile returns the copy.
	other := filepath.Join(dir, "b.yaml")
	mine = []byte("new\n")
	kept = tr.WriteFile(other, mine)
	mine[0] = 'X'
	if got, err := tr.ReadFile(other); err != nil || string(got) != "new\n" || &got[0] != &kept[0] {
		t.Errorf("ReadFile = %q, %v; want the written content, the bytes WriteFile returned", got, err)
	}
	tr.Remove(other)
	changes, st, err := tr.Changes()
	if err != nil || len(changes) != 0 || st.Unchanged != 1 {
		t.Errorf("Changes = %v, %+v, %v; want one unchanged file", changes, st, err)
	}
}

// TestPutKeepsTheBytesHandedOver: Put records the caller's bytes without
// copying them, and content equal to the disk's, as read already, shares
// the bytes read as WriteFile does.
func TestPutKeepsTheBytesHandedOver(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.yaml")
	write(t, same, "same\n")
	tr := New()
	disk, err := tr.ReadFile(same)
	if err != nil {
		t.Fatal(err)
	}
	if kept := tr.Put(same, []byte("same\n")); &kept[0] != &disk[0] {
		t.Error("Put of the disk's content keeps a second copy")
	}
	mine := []byte("new\n")
	other := filepath.Join(dir, "new.yaml")
	kept := tr.Put(other, mine)
	got, err := tr.ReadFile(other)
	if err != nil || string(got) != "new\n" || &kept[0] != &mine[0] || &got[0] != &mine[0] {
		t.Errorf("ReadFile = %q, %v; want the very bytes handed to Put", got, err)
	}
	changes, _, err := tr.Changes()
	if err != nil || len(changes) != 1 || changes[0].Path != other {
		t.Errorf("Changes = %v, %v; want the new file alone", changes, err)
	}
}
