package goload

import (
	"go/ast"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestLoadWithOverlaySeesEditedComments proves that the syntax the stages
// read comes from the overlay, in the single load of the run.
func TestLoadWithOverlaySeesEditedComments(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\n// Widget is on disk.\ntype Widget struct{}\n",
		"v1/other.go": "package v1\n\n// Gadget is untouched.\ntype Gadget struct{}\n",
	})
	file := filepath.Join(dir, "v1", "types.go")
	overlay := map[string][]byte{file: []byte("package v1\n\n// Widget is in memory.\n//\n// More text.\ntype Widget struct{}\n")}
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/v1"
	u, err := LoadWith(dir, []string{importPath}, Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	if n := u.Loads(); n != 1 {
		t.Errorf("%d loads, want 1", n)
	}
	root := u.Root(importPath)
	root.NeedSyntax()
	var got []string
	for _, f := range root.Syntax {
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Doc != nil {
				got = append(got, strings.TrimSpace(gd.Doc.Text()))
			}
		}
	}
	want := "Gadget is untouched.|Widget is in memory.\n\nMore text."
	if strings.Join(got, "|") != want {
		t.Errorf("docs = %q, want %q", strings.Join(got, "|"), want)
	}
	if pos := u.Fset.Position(root.Syntax[1].Decls[0].Pos()); pos.Filename != file || pos.Line != 6 {
		t.Errorf("the overlaid file is positioned at %s", pos)
	}
	root.NeedTypesInfo()
	if len(root.Errors) > 0 {
		t.Errorf("type-checking the overlaid package: %v", root.Errors)
	}
}
