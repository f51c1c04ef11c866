package discovery

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// memoTree is a tree of two group-versions, a package without one and a
// directory whose GroupVersion is not a literal (a warning).
func memoTree(t *testing.T) string {
	return testtree.Write(t, merge(
		pkgFiles("a/v1", "v1", "a.example.io", "v1"),
		pkgFiles("b/v1", "v1", "b.example.io", "v1"),
		map[string]string{
			"a/v1/types.go":   "package v1\n\n// Thing is a type.\ntype Thing struct{}\n",
			"util/util.go":    "package util\n\nfunc F() {}\n",
			"odd/v1/types.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{}.WithKind(\"x\").GroupVersion()\n",
		}))
}

// discovered renders what a run found: every version with its parsed
// files and doc.go markers, then the problems.
func discovered(t *testing.T, dir string, memo *Memo) string {
	t.Helper()
	res, probs, err := DiscoverWith(dir, nil, Options{Memo: memo})
	var b strings.Builder
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	if res != nil {
		for _, v := range res.Versions() {
			// The files a memo vouches for count as parsed.
			files := slices.Sorted(slices.Values(append(slices.Collect(maps.Keys(v.Files)), v.Unparsed...)))
			for i, f := range files {
				files[i] = filepath.Base(f)
				if v.Files[f] != nil && v.Files[f].Name.Name != v.PackageName {
					t.Errorf("%s: syntax of package %s in package %s", f, v.Files[f].Name.Name, v.PackageName)
				}
			}
			fmt.Fprintf(&b, "%s %s %s %v %v %d mismatch(es)\n", v.Name(), v.ImportPath, v.PackageName, files, v.DocLines, len(v.Mismatches))
		}
	}
	for _, d := range probs.Items() {
		fmt.Fprintf(&b, "%s\n", d)
	}
	return b.String()
}

func TestMemoServesUnchangedDirectories(t *testing.T) {
	dir := memoTree(t)
	want := discovered(t, dir, nil)
	memo := NewMemo()
	if got := discovered(t, dir, memo); got != want {
		t.Fatalf("first run with a memo:\n%s\nwant:\n%s", got, want)
	}
	read := memo.Read
	if read == 0 || memo.Reused != 0 {
		t.Fatalf("first run: %d read, %d reused", memo.Read, memo.Reused)
	}
	if got := discovered(t, dir, memo); got != want {
		t.Errorf("second run with a memo:\n%s\nwant:\n%s", got, want)
	}
	if memo.Read != read || memo.Reused != read {
		t.Errorf("second run: %d read again, %d reused, want 0 and %d", memo.Read-read, memo.Reused, read)
	}
}

// TestMemoSeesChanges: every change to a directory's Go files that a
// one-shot run sees, the memo sees too.
func TestMemoSeesChanges(t *testing.T) {
	edits := map[string]func(t *testing.T, dir string){
		"constant edited": func(t *testing.T, dir string) {
			write(t, dir, "b/v1/names.go", "package v1\n\nconst GroupName = \"bb.example.io\"\n")
		},
		"file added with another package clause": func(t *testing.T, dir string) {
			write(t, dir, "a/v1/other.go", "package other\n")
		},
		"file removed": func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "b/v1/register.go")); err != nil {
				t.Fatal(err)
			}
		},
		"syntax error": func(t *testing.T, dir string) {
			write(t, dir, "a/v1/types.go", "package v1\n\ntype Thing struct{\n")
		},
		"GroupVersion declared": func(t *testing.T, dir string) {
			write(t, dir, "util/util.go", "package util\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{Group: \"u.example.io\", Version: \"util\"}\n")
		},
		"doc.go marker edited": func(t *testing.T, dir string) {
			write(t, dir, "a/v1/doc.go", "// +groupName=a.example.io\n\n// +openshift:featuregated-schema-gen=false\npackage v1\n")
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			dir := memoTree(t)
			memo := NewMemo()
			before := discovered(t, dir, memo)
			edit(t, dir)
			want := discovered(t, dir, nil)
			if want == before {
				t.Fatalf("the edit changes nothing discovery finds:\n%s", want)
			}
			if got := discovered(t, dir, memo); got != want {
				t.Errorf("with the memo:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestMemoForget: an edit that keeps a file's size and modification time
// is seen once the directory is forgotten (codegen watch forgets the
// directory of every file whose content changed).
func TestMemoForget(t *testing.T) {
	dir := memoTree(t)
	memo := NewMemo()
	before := discovered(t, dir, memo)
	p := filepath.Join(dir, "b/v1/names.go")
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "b/v1/names.go", "package v1\n\nconst GroupName = \"c.example.io\"\n")
	if err := os.Chtimes(p, time.Time{}, info.ModTime()); err != nil {
		t.Fatal(err)
	}
	want := discovered(t, dir, nil)
	if want == before {
		t.Fatalf("the edit changes nothing discovery finds:\n%s", want)
	}
	memo.Forget(filepath.Join(dir, "b/v1"))
	if got := discovered(t, dir, memo); got != want {
		t.Errorf("after Forget:\n%s\nwant:\n%s", got, want)
	}
	memo.Reset()
	reused := memo.Reused
	if got := discovered(t, dir, memo); got != want || memo.Reused != reused {
		t.Errorf("after Reset (%d reused):\n%s\nwant:\n%s", memo.Reused-reused, got, want)
	}
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
