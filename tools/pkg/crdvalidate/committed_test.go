package crdvalidate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// gitRepo makes a repository in a new directory with files committed, and
// returns its directory.
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	testtree.Add(t, dir, files)
	if len(files) > 0 {
		git("add", ".")
		git("commit", "-q", "-m", "files")
	}
	return dir
}

// TestCommitted: a file reads as committed at HEAD, whatever its working
// copy holds; a file not committed, a directory, a file outside the
// directory or in a directory outside any repository reads as nil, and
// reads go on after one of those.
func TestCommitted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t, map[string]string{"api/v1/a.yaml": "committed a\n", "b.yaml": "committed b\n"})
	if err := os.WriteFile(filepath.Join(repo, "api/v1/a.yaml"), []byte("edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(repo, link); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	for _, tc := range []struct {
		name, dir string
		reads     [][2]string // path relative to dir (".." allowed), content ("": nil)
	}{
		{"repository root", repo, [][2]string{{"api/v1/a.yaml", "committed a\n"}, {"api/v1/new.yaml", ""}, {"api/v1", ""}, {"b.yaml", "committed b\n"}}},
		{"subdirectory", filepath.Join(repo, "api"), [][2]string{{"v1/a.yaml", "committed a\n"}, {"../b.yaml", ""}, {"v1/a.yaml", "committed a\n"}}},
		{"through a symbolic link", link, [][2]string{{"api/v1/a.yaml", "committed a\n"}}},
		{"no repository", outside, [][2]string{{"a.yaml", ""}, {"b.yaml", ""}}},
		{"no commit", gitRepo(t, nil), [][2]string{{"a.yaml", ""}}},
	} {
		for _, blobs := range []*CommittedBlobs{nil, NewCommittedBlobs()} {
			t.Run(fmt.Sprintf("%s/blobs kept=%v", tc.name, blobs != nil), func(t *testing.T) {
				// Twice with the same blobs: the second reads what the first kept.
				for range 2 {
					c := OpenCommittedWith(tc.dir, blobs)
					for _, r := range tc.reads {
						rel, want := r[0], r[1]
						if got := string(c.Read(filepath.Join(tc.dir, filepath.FromSlash(rel)))); got != want {
							t.Errorf("Read(%s) = %q, want %q", rel, got, want)
						}
					}
					c.Close()
				}
			})
		}
	}
}

// TestCommittedBlobsFollowHEAD: a reader keeping blobs reads a file as
// committed at HEAD also after HEAD moved, and reads no content of git's
// for a file whose blob the last reader read.
func TestCommittedBlobsFollowHEAD(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := gitRepo(t, map[string]string{"a.yaml": "a1\n", "b.yaml": "b1\n"})
	blobs := NewCommittedBlobs()
	read := func(name string) (string, *Committed) {
		c := OpenCommittedWith(repo, blobs)
		defer c.Close()
		return string(c.Read(filepath.Join(repo, name))), c
	}
	if got, _ := read("a.yaml"); got != "a1\n" {
		t.Fatalf("a.yaml = %q, want a1", got)
	}
	if got, c := read("a.yaml"); got != "a1\n" || c.contents != nil {
		t.Errorf("a.yaml again = %q, content read from git: %v; want a1 from the blobs kept", got, c.contents != nil)
	}
	testtree.Add(t, repo, map[string]string{"a.yaml": "a2\n"})
	for _, args := range [][]string{{"add", "."}, {"commit", "-q", "-m", "a2"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if got, _ := read("a.yaml"); got != "a2\n" {
		t.Errorf("a.yaml after a commit = %q, want a2", got)
	}
	if got, _ := read("b.yaml"); got != "b1\n" {
		t.Errorf("b.yaml = %q, want b1", got)
	}
}
