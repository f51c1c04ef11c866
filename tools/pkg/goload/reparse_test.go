package goload

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestSessionParsesOnlyTheChangedFiles: after a save of one file of a
// package, a Session keeps the syntax of the package's other files and
// parses only the saved one; the package is type-checked from that, so it
// sees the edit. A save that does not parse makes the loader parse the
// package and report the error as a fresh load does, and the next good
// save recovers.
func TestSessionParsesOnlyTheChangedFiles(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"pkg/a.go": "package pkg\n\n// A is in a.go.\ntype A struct{ B B }\n",
		"pkg/b.go": "package pkg\n\n// B is in b.go.\ntype B struct{}\n",
	})
	path := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/pkg"
	b := filepath.Join(dir, "pkg", "b.go")
	s := NewSession(dir)
	universe := func(changed ...string) *Universe {
		t.Helper()
		u, _, err := s.Universe([]string{path}, changed, changed == nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		u.Roots[0].NeedSyntax()
		return u
	}
	byName := func(u *Universe) map[string]*ast.File {
		out := map[string]*ast.File{}
		for _, f := range u.Roots[0].Syntax {
			out[filepath.Base(u.Fset.File(f.Pos()).Name())] = f
		}
		return out
	}
	before := byName(universe())
	write(t, b, "package pkg\n\n// B is in b.go.\ntype B struct{ N int }\n")
	u := universe(b)
	after := byName(u)
	if after["a.go"] != before["a.go"] || after["b.go"] == before["b.go"] || len(after) != 2 {
		t.Fatalf("after saving b.go: a.go kept %v, b.go parsed again %v, %d file(s)", after["a.go"] == before["a.go"], after["b.go"] != before["b.go"], len(after))
	}
	if got := fieldsOf(t, u, path, "A", "B"); got != 1 {
		t.Errorf("A.B has %d field(s) after the edit, want 1", got)
	}

	write(t, b, "package pkg\n\ntype B struct{\n")
	u = universe(b)
	fresh, err := Load(dir, []string{path})
	if err != nil {
		t.Fatal(err)
	}
	fresh.Roots[0].NeedSyntax()
	if got, want := errorsOf(u), errorsOf(fresh); got != want || want == "" {
		t.Errorf("a save that does not parse: errors %q, want %q", got, want)
	}

	write(t, b, "package pkg\n\n// B is in b.go.\ntype B struct{ N, M int }\n")
	if got := fieldsOf(t, universe(b), path, "A", "B"); got != 2 {
		t.Errorf("after the fix, A.B has %d field(s), want 2", got)
	}
}

func errorsOf(u *Universe) string {
	var out []string
	for _, e := range u.Roots[0].Errors {
		out = append(out, e.Error())
	}
	return strings.Join(out, "\n")
}
