package goload

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestLoadWithParsedKeepsTheGivenSyntax proves that a root package whose
// compiled files were parsed already is not parsed again: its syntax is
// the given trees, positioned by the given file set, and it type-checks.
func TestLoadWithParsedKeepsTheGivenSyntax(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\n// Widget is a type.\ntype Widget struct{ Spec Spec }\n",
		"v1/spec.go":  "package v1\n\ntype Spec struct{ Size int }\n",
	})
	fset := token.NewFileSet()
	parsed := map[string]*ast.File{}
	for _, n := range []string{"types.go", "spec.go"} {
		name := filepath.Join(dir, "v1", n)
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		parsed[name] = f
	}
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/v1"
	u, err := LoadWith(dir, []string{importPath}, Options{Fset: fset, Parsed: parsed})
	if err != nil {
		t.Fatal(err)
	}
	if u.Fset != fset {
		t.Error("the universe does not position files with the given file set")
	}
	root := u.Root(importPath)
	root.NeedSyntax()
	if len(root.Syntax) != 2 {
		t.Fatalf("%d files, want 2", len(root.Syntax))
	}
	for i, f := range root.Syntax {
		if parsed[root.CompiledGoFiles[i]] != f {
			t.Errorf("%s was parsed again", root.CompiledGoFiles[i])
		}
	}
	root.NeedTypesInfo()
	if len(root.Errors) > 0 {
		t.Errorf("type-checking: %v", root.Errors)
	}
	if root.Types.Scope().Lookup("Widget") == nil {
		t.Error("Widget is not in the checked package")
	}
}
