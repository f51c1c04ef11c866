package goload

import (
	"go/ast"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestCommentsOutliveDroppedBodies: Universe.Comments returns every
// comment group of a file as parsed, also once DropFunctionBodies removed
// those inside function bodies from the file, and so do the universes a
// Session serves from the packages it keeps; a file parsed again after a
// change has its own.
func TestCommentsOutliveDroppedBodies(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"dep/dep.go": depSource})
	path := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/dep"
	file := filepath.Join(dir, "dep", "dep.go")
	s := NewSession(dir)
	universe := func(changed ...string) (*Universe, *ast.File) {
		t.Helper()
		u, _, err := s.Universe([]string{path}, changed, changed == nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		u.Roots[0].NeedSyntax()
		return u, u.Roots[0].Syntax[0]
	}
	texts := func(groups []*ast.CommentGroup) []string {
		var out []string
		for _, g := range groups {
			out = append(out, strings.TrimSpace(g.Text()))
		}
		return out
	}
	u, f := universe()
	parsed := texts(f.Comments)
	if !slices.Contains(parsed, "+kubebuilder:validation:MaxLength=3") {
		t.Fatalf("no comment inside a body among %q", parsed)
	}
	u.DropFunctionBodies()
	if got := texts(f.Comments); len(got) >= len(parsed) {
		t.Fatalf("DropFunctionBodies kept every comment: %q", got)
	}
	if got := texts(u.Comments(f)); !slices.Equal(got, parsed) {
		t.Errorf("after DropFunctionBodies: %q\nwant %q", got, parsed)
	}
	next, kept := universe([]string{}...)
	if kept != f {
		t.Fatal("the session did not keep the file")
	}
	next.DropFunctionBodies()
	if got := texts(next.Comments(kept)); !slices.Equal(got, parsed) {
		t.Errorf("in the next universe: %q\nwant %q", got, parsed)
	}
	edited := strings.Replace(depSource, "+kubebuilder:validation:MaxLength=3", "+kubebuilder:validation:MaxLength=30", 1)
	write(t, file, edited)
	third, again := universe(file)
	if again == f {
		t.Fatal("the edited file was not parsed again")
	}
	if got := texts(third.Comments(again)); !slices.Contains(got, "+kubebuilder:validation:MaxLength=30") || slices.Contains(got, "+kubebuilder:validation:MaxLength=3") {
		t.Errorf("after the edit: %q", got)
	}
	if len(s.all.dropped.m) != 0 {
		t.Errorf("the comments of the replaced file are still kept: %d file(s)", len(s.all.dropped.m))
	}
}
