package goload

import (
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestSessionReloadsOnlyWhatAChangeConcerns drives a Session through
// the saves codegen watch sees: an edit below the imports of a package
// invalidates that package and its importers, transitively, and nothing
// else (the others keep their parsed files), without listing packages
// again; an edit of the imports, a new file and a file deleted make it
// list them again with the go command.
func TestSessionReloadsOnlyWhatAChangeConcerns(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"leaf/leaf.go":   "package leaf\n\n// Leaf is imported by mid.\ntype Leaf struct{}\n",
		"mid/mid.go":     "package mid\n\nimport \"PREFIX/leaf\"\n\n// Mid holds a Leaf.\ntype Mid struct{ L leaf.Leaf }\n",
		"other/other.go": "package other\n\n// Other imports nothing.\ntype Other struct{}\n",
		"root1/root1.go": "package root1\n\nimport \"PREFIX/mid\"\n\n// Root1 holds a Mid.\ntype Root1 struct{ M mid.Mid }\n",
		"root2/root2.go": "package root2\n\nimport \"PREFIX/other\"\n\n// Root2 holds an Other.\ntype Root2 struct{ O other.Other }\n",
	})
	prefix := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir)
	for _, rel := range []string{"mid/mid.go", "root1/root1.go", "root2/root2.go"} {
		write(t, filepath.Join(dir, rel), replacePrefix(read(t, filepath.Join(dir, rel)), prefix))
	}
	roots := []string{prefix + "/root1", prefix + "/root2"}
	s := NewSession(dir)
	universe := func(changed ...string) (*Universe, bool) {
		t.Helper()
		for i, rel := range changed {
			changed[i] = filepath.Join(dir, rel)
		}
		u, kept, err := s.Universe(roots, changed, false, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range u.Roots {
			u.Checker.Check(r)
		}
		return u, kept
	}
	firstSyntax := func(u *Universe, path string) *ast.File {
		t.Helper()
		p := u.Package(path)
		if p != nil {
			p.NeedSyntax()
		}
		if p == nil || len(p.Syntax) == 0 {
			t.Fatalf("%s: not loaded", path)
		}
		return p.Syntax[0]
	}

	u, kept := universe()
	if kept || s.Fresh != 1 {
		t.Fatalf("first load: kept %v, %d fresh loads", kept, s.Fresh)
	}
	other, root2 := firstSyntax(u, prefix+"/other"), firstSyntax(u, prefix+"/root2")
	leaf, mid := firstSyntax(u, prefix+"/leaf"), firstSyntax(u, prefix+"/mid")
	if got := fieldsOf(t, u, prefix+"/mid", "Mid", "L"); got != 0 {
		t.Fatalf("mid's Mid.L has %d field(s) before the edit, want 0", got)
	}

	write(t, filepath.Join(dir, "leaf/leaf.go"), "package leaf\n\n// Leaf is imported by mid, edited.\ntype Leaf struct{ N int }\n")
	u, kept = universe("leaf/leaf.go")
	if !kept || s.Fresh != 1 || s.Invalidated != 3 {
		t.Fatalf("after a body edit: kept %v, %d fresh loads, %d invalidated (want leaf, mid, root1)", kept, s.Fresh, s.Invalidated)
	}
	if firstSyntax(u, prefix+"/leaf") == leaf {
		t.Error("the edited package kept its old syntax")
	}
	if got := firstSyntax(u, prefix+"/leaf").Decls[0].(*ast.GenDecl).Doc.Text(); got != "Leaf is imported by mid, edited.\n" {
		t.Errorf("the edited package reads %q", got)
	}
	if firstSyntax(u, prefix+"/other") != other || firstSyntax(u, prefix+"/root2") != root2 {
		t.Error("packages the edit does not concern were parsed again")
	}
	if firstSyntax(u, prefix+"/mid") != mid {
		t.Error("mid, which imports the edited package, was parsed again although its files did not change")
	}
	if got := fieldsOf(t, u, prefix+"/mid", "Mid", "L"); got != 1 {
		t.Errorf("mid's Mid.L has %d field(s) after the edit, want 1 (Leaf's new N): mid was not type-checked again", got)
	}

	// mid was invalidated with leaf; an import edit of its file after
	// the next body edit of leaf still lists the packages again.
	write(t, filepath.Join(dir, "leaf/leaf.go"), "package leaf\n\n// Leaf is imported by mid, edited again.\ntype Leaf struct{ N int }\n")
	if _, kept = universe("leaf/leaf.go"); !kept || s.Fresh != 1 {
		t.Fatalf("after a second body edit: kept %v, %d fresh loads", kept, s.Fresh)
	}
	write(t, filepath.Join(dir, "mid/mid.go"), replacePrefix("package mid\n\nimport (\n\t\"PREFIX/leaf\"\n\t\"PREFIX/other\"\n)\n\n// Mid holds a Leaf.\ntype Mid struct {\n\tL leaf.Leaf\n\tO other.Other\n}\n", prefix))
	if _, kept = universe("mid/mid.go"); kept || s.Fresh != 2 {
		t.Fatalf("after an import edit of an invalidated package: kept %v, %d fresh loads (want a new listing)", kept, s.Fresh)
	}

	write(t, filepath.Join(dir, "root2/root2.go"), replacePrefix("package root2\n\nimport (\n\t\"PREFIX/leaf\"\n\t\"PREFIX/other\"\n)\n\n// Root2 holds an Other.\ntype Root2 struct {\n\tO other.Other\n\tL leaf.Leaf\n}\n", prefix))
	if _, kept = universe("root2/root2.go"); kept || s.Fresh != 3 {
		t.Errorf("after an import edit: kept %v, %d fresh loads (want a new listing)", kept, s.Fresh)
	}

	write(t, filepath.Join(dir, "other/more.go"), "package other\n\n// More is in a new file.\ntype More struct{}\n")
	if _, kept = universe("other/more.go"); kept || s.Fresh != 4 {
		t.Errorf("after a new file: kept %v, %d fresh loads (want a new listing)", kept, s.Fresh)
	}
	if err := os.Remove(filepath.Join(dir, "other/more.go")); err != nil {
		t.Fatal(err)
	}
	if _, kept = universe("other/more.go"); kept || s.Fresh != 5 {
		t.Errorf("after a file deleted: kept %v, %d fresh loads (want a new listing)", kept, s.Fresh)
	}
	if _, kept = universe("other/other.go"); !kept || s.Fresh != 5 {
		t.Errorf("after a save changing nothing listed: kept %v, %d fresh loads", kept, s.Fresh)
	}
}

// fieldsOf returns how many fields the struct type of field of the
// named struct type of the package at path has, as type-checked.
func fieldsOf(t *testing.T, u *Universe, path, typeName, field string) int {
	t.Helper()
	p := u.Package(path)
	if p == nil {
		t.Fatalf("%s: not loaded", path)
	}
	// No node filter: every package the types refer to is checked.
	(&loader.TypeChecker{}).Check(p)
	st, ok := p.Types.Scope().Lookup(typeName).Type().Underlying().(*types.Struct)
	if !ok {
		t.Fatalf("%s.%s: not a struct", path, typeName)
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == field {
			return f.Type().Underlying().(*types.Struct).NumFields()
		}
	}
	t.Fatalf("%s.%s has no field %s", path, typeName, field)
	return 0
}

func read(t *testing.T, p string) string {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func replacePrefix(s, prefix string) string {
	return strings.ReplaceAll(s, "PREFIX", prefix)
}

// TestSessionKeepsInertVerdicts: a kept package invalidated by an edit of
// one of its files does not have its unchanged generated files read
// again to leave out the inert ones (the verdict of the load stands),
// while a generated file that is among the changed ones is read again.
func TestSessionKeepsInertVerdicts(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\n// Widget is a widget.\ntype Widget struct{}\n",
		"v1/types_swagger_doc_generated.go": "package v1\n\nvar map_Widget = map[string]string{\"\": \"Widget is a widget.\"}\n\n" +
			"func (Widget) SwaggerDoc() map[string]string { return map_Widget }\n",
	})
	prefix := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir)
	s := NewSession(dir)
	compiled := func(changed ...string) bool {
		t.Helper()
		for i, rel := range changed {
			changed[i] = filepath.Join(dir, rel)
		}
		u, _, err := s.Universe([]string{prefix + "/v1"}, changed, false, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range u.Root(prefix + "/v1").CompiledGoFiles {
			if filepath.Base(f) == "types_swagger_doc_generated.go" {
				return true
			}
		}
		return false
	}
	if compiled() {
		t.Fatal("first load: the inert swagger file is compiled")
	}
	// The swagger file now declares a type, but the session is told of
	// the edit of types.go only: the load's verdict on it is kept, which
	// shows that it was not read again.
	write(t, filepath.Join(dir, "v1/types_swagger_doc_generated.go"), "package v1\n\n// Extra is declared here.\ntype Extra struct{}\n")
	write(t, filepath.Join(dir, "v1/types.go"), "package v1\n\n// Widget is a widget, edited.\ntype Widget struct{}\n")
	if compiled("v1/types.go") {
		t.Error("an edit of types.go had the unchanged swagger file read again")
	}
	if !compiled("v1/types_swagger_doc_generated.go") {
		t.Error("the changed swagger file, which declares a type now, is left out")
	}
	if s.Fresh != 1 {
		t.Errorf("%d fresh loads, want 1", s.Fresh)
	}
}
