package discovery

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// watchingAll keeps the listing of every directory.
func watchingAll(string) bool { return true }

// TestKeptListingsServeUnchangedTrees: with KeepListings, a second run
// over an unchanged tree lists no directory again and finds what a
// one-shot run finds.
func TestKeptListingsServeUnchangedTrees(t *testing.T) {
	dir := memoTree(t)
	want := discovered(t, dir, nil)
	memo := NewMemo()
	memo.KeepListings(watchingAll)
	discovered(t, dir, memo)
	if memo.ListingsReused != 0 {
		t.Fatalf("first run reused %d listings", memo.ListingsReused)
	}
	listed := len(memo.listings)
	read := memo.Read
	if got := discovered(t, dir, memo); got != want {
		t.Errorf("second run:\n%s\nwant:\n%s", got, want)
	}
	if memo.ListingsReused != listed || memo.Read != read {
		t.Errorf("second run: %d of %d listings reused, %d directories read again", memo.ListingsReused, listed, memo.Read-read)
	}
}

// TestKeptListingsTrustTheCaller: a kept listing stands for its
// directory until the caller forgets it, so an edit the caller was not
// told of is not seen in a watched directory, and is in one that is not
// watched.
func TestKeptListingsTrustTheCaller(t *testing.T) {
	dir := memoTree(t)
	memo := NewMemo()
	unwatched := filepath.Join(dir, "b/v1")
	memo.KeepListings(func(d string) bool { return d != unwatched })
	before := discovered(t, dir, memo)
	write(t, dir, "a/v1/other.go", "package other\n")
	if got := discovered(t, dir, memo); got != before {
		t.Errorf("a file added to a kept directory was seen without Forget:\n%s", got)
	}
	write(t, dir, "b/v1/other.go", "package other\n")
	if got := discovered(t, dir, memo); !strings.Contains(got, "b/v1/other.go") {
		t.Errorf("a file added to a directory that is not watched was not seen:\n%s", got)
	}
}

// TestForgetSeesEveryChange: every change a one-shot run sees, a run
// with kept listings sees once the directory of the changed entry is
// forgotten, whether the change edits, adds or removes a file, adds a
// package directory, removes one, or makes a directory another module's.
func TestForgetSeesEveryChange(t *testing.T) {
	edits := map[string]func(t *testing.T, dir string) string{
		"constant edited, same stamp": func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "b/v1/names.go")
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			write(t, dir, "b/v1/names.go", "package v1\n\nconst GroupName = \"c.example.io\"\n")
			if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
			return p
		},
		"file added with another package clause": func(t *testing.T, dir string) string {
			write(t, dir, "a/v1/other.go", "package other\n")
			return filepath.Join(dir, "a/v1/other.go")
		},
		"file removed": func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "b/v1/register.go")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			return p
		},
		"package directory added below a new directory": func(t *testing.T, dir string) string {
			for rel, content := range pkgFiles("c/x/v1", "v1", "c.example.io", "v1") {
				if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
					t.Fatal(err)
				}
				write(t, dir, rel, content)
			}
			return filepath.Join(dir, "c/x/v1/register.go")
		},
		"package directory removed": func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "a/v1")
			if err := os.RemoveAll(p); err != nil {
				t.Fatal(err)
			}
			return p
		},
		"go.mod added": func(t *testing.T, dir string) string {
			write(t, dir, "b/go.mod", "module b\n")
			return filepath.Join(dir, "b/go.mod")
		},
	}
	for name, edit := range edits {
		t.Run(name, func(t *testing.T) {
			dir := memoTree(t)
			memo := NewMemo()
			memo.KeepListings(watchingAll)
			before := discovered(t, dir, memo)
			changed := edit(t, dir)
			want := discovered(t, dir, nil)
			if want == before {
				t.Fatalf("the edit changes nothing discovery finds:\n%s", want)
			}
			memo.Forget(filepath.Dir(changed))
			if got := discovered(t, dir, memo); got != want {
				t.Errorf("after Forget:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestMemoVouchesForParsedFiles: a run with a memo leaves unparsed the
// files a run before parsed with the same bytes (Version.Unparsed), parses
// again a file whose bytes changed (unless a caller noted they parse), reports its syntax error as a run
// without memo does, and after Reset parses everything.
func TestMemoVouchesForParsedFiles(t *testing.T) {
	dir := memoTree(t)
	write(t, dir, "a/v1/more.go", "package v1\n\n// More is another type.\ntype More struct{}\n")
	memo := NewMemo()
	files := func() (parsed, unparsed []string) {
		t.Helper()
		res, _, _ := DiscoverWith(dir, []string{"a.example.io/v1"}, Options{Memo: memo})
		if res == nil || len(res.Versions()) == 0 {
			return nil, nil
		}
		v := res.Versions()[0]
		for f := range v.Files {
			parsed = append(parsed, filepath.Base(f))
		}
		for _, f := range v.Unparsed {
			unparsed = append(unparsed, filepath.Base(f))
		}
		slices.Sort(parsed)
		return parsed, unparsed
	}
	check := func(what string, wantParsed, wantUnparsed []string) {
		t.Helper()
		parsed, unparsed := files()
		if !slices.Equal(parsed, wantParsed) || !slices.Equal(unparsed, wantUnparsed) {
			t.Errorf("%s: parsed %v, unparsed %v; want %v and %v", what, parsed, unparsed, wantParsed, wantUnparsed)
		}
	}
	all := []string{"doc.go", "more.go", "names.go", "register.go", "types.go"}
	check("first run", all, nil)
	// register.go declares GroupVersion, whose literal names a constant of
	// names.go: whenever discovery reads the directory, it parses both
	// (the memo's directory entry keeps no syntax).
	memo.Forget(filepath.Join(dir, "a/v1"))
	check("directory read again", []string{"doc.go", "names.go", "register.go"}, []string{"more.go", "types.go"})
	check("directory served", []string{"doc.go"}, []string{"more.go", "names.go", "register.go", "types.go"})
	write(t, dir, "a/v1/types.go", "package v1\n\n// Thing is a thing.\ntype Thing struct{}\n")
	check("file edited", []string{"doc.go", "names.go", "register.go", "types.go"}, []string{"more.go"})
	// A caller that parsed the edited file says so (NoteParses): it is
	// vouched for, unless its bytes differ from what the caller parsed.
	edited := "package v1\n\n// Thing is a thing, edited.\ntype Thing struct{}\n"
	write(t, dir, "a/v1/types.go", edited)
	memo.NoteParses(filepath.Join(dir, "a/v1/types.go"), sha256.Sum256([]byte(edited)))
	check("edit noted as parsing", []string{"doc.go", "names.go", "register.go"}, []string{"more.go", "types.go"})
	write(t, dir, "a/v1/types.go", "package v1\n\n// Thing is a thing.\ntype Thing struct{}\n")
	memo.NoteParses(filepath.Join(dir, "a/v1/types.go"), sha256.Sum256([]byte(edited)))
	check("noted bytes differ", []string{"doc.go", "names.go", "register.go", "types.go"}, []string{"more.go"})
	write(t, dir, "a/v1/types.go", "package v1\n\ntype Thing struct{\n")
	want := discovered(t, dir, nil)
	if got := discovered(t, dir, memo); got != want || !strings.Contains(got, "types.go:3: Go syntax error") {
		t.Errorf("syntax error:\n%s\nwant:\n%s", got, want)
	}
	write(t, dir, "a/v1/types.go", "package v1\n\n// Thing is a thing.\ntype Thing struct{}\n")
	memo.Reset()
	check("after Reset", all, nil)
}
