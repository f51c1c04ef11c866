package goload

import (
	"fmt"
	"go/ast"
	"path/filepath"
	"reflect"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

// depSource has marker-like comments inside function bodies, around them
// and between a signature and its body, next to types with markers of
// their own: without the body, a comment left behind would be taken for
// the next type's.
const depSource = `package dep

// +kubebuilder:validation:MinItems=9
func Before() int {
	// +kubebuilder:validation:Minimum=1
	x := 1
	return x
} // +kubebuilder:validation:Maximum=8

func Sig() /* +kubebuilder:validation:Maximum=2 */ {
	// +kubebuilder:validation:MaxLength=3
}

// Thing is a type.
// +kubebuilder:validation:MinLength=4
type Thing struct {
	// +kubebuilder:validation:Minimum=5
	Size int ` + "`json:\"size\"`" + `
}

func (Thing) Method() {
	// +kubebuilder:validation:Minimum=6
	_ = 0
}

// +kubebuilder:validation:Pattern=x

// Other is another type.
type Other string
`

// TestDropFunctionBodiesKeepsMarkers proves that dropping the bodies of a
// dependency changes neither the markers the collector associates with
// its declarations nor the lines markerpos finds for them, and that the
// pruned type information still types every type expression.
func TestDropFunctionBodiesKeepsMarkers(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"dep/dep.go":  depSource,
		"v1/types.go": "package v1\n\nimport \"example.com/m/dep\"\n\ntype Widget struct{ T dep.Thing }\n\nvar doc = map[string]string{\"T\": \"a thing\"}\n\nfunc F() {\n\t// +kubebuilder:validation:Minimum=7\n}\n",
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
	})
	u, err := Load(dir, []string{"example.com/m/v1"})
	if err != nil {
		t.Fatal(err)
	}
	dep := u.Package("example.com/m/dep")
	if dep == nil {
		t.Fatal("the dependency was not loaded")
	}
	dep.NeedTypesInfo() // first, so that the root sees its types
	u.Roots[0].NeedTypesInfo()
	before, beforeLines := markersOf(t, u, dep), linesOf(u, dep)
	if len(before) == 0 || len(beforeLines) == 0 {
		t.Fatal("no markers found before trimming")
	}

	u.DropFunctionBodies()
	for _, p := range []*loader.Package{dep, u.Roots[0]} {
		if n := bodies(p); n != 0 {
			t.Errorf("%s: %d bodies left", p.PkgPath, n)
		}
	}
	checkPrunedTypes(t, u.Roots[0])
	after, afterLines := markersOf(t, u, dep), linesOf(u, dep)
	if !reflect.DeepEqual(before, after) {
		t.Errorf("collector markers changed:\nbefore %v\nafter  %v", before, after)
	}
	if !reflect.DeepEqual(beforeLines, afterLines) {
		t.Errorf("marker lines changed:\nbefore %v\nafter  %v", beforeLines, afterLines)
	}
}

// markersOf collects pkg's markers with a fresh collector, by position of
// the node they belong to, leaving out nodes without markers.
func markersOf(t *testing.T, u *Universe, pkg *loader.Package) map[string]markers.MarkerValues {
	t.Helper()
	col := &markers.Collector{Registry: u.Registry}
	vals, err := col.MarkersInPackage(pkg)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]markers.MarkerValues{}
	for node, v := range vals {
		if len(v) > 0 {
			out[position(u, node)] = v
		}
	}
	return out
}

// linesOf returns markerpos' lines of pkg by position of their node.
func linesOf(u *Universe, pkg *loader.Package) map[string][]string {
	out := map[string][]string{}
	for node, ls := range markerpos.Of(pkg) {
		for _, l := range ls {
			out[position(u, node)] = append(out[position(u, node)], l.Text)
		}
	}
	return out
}

func position(u *Universe, node ast.Node) string {
	p := u.Fset.Position(node.Pos())
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

func bodies(pkg *loader.Package) int {
	n := 0
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				n++
			}
		}
	}
	return n
}

// checkPrunedTypes requires that root's field type still has its type and
// that the value expressions of its var initialiser have none.
func checkPrunedTypes(t *testing.T, root *loader.Package) {
	t.Helper()
	for _, f := range root.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Field:
				if typ := root.TypesInfo.TypeOf(n.Type); typ == nil || typ.String() != "example.com/m/dep.Thing" {
					t.Errorf("TypeOf(field type) = %v, want example.com/m/dep.Thing", typ)
				}
			case *ast.BasicLit:
				if _, ok := root.TypesInfo.Types[n]; ok {
					t.Errorf("the literal %s still has a recorded value", n.Value)
				}
			}
			return true
		})
	}
	if root.TypesInfo.Scopes != nil || root.TypesInfo.Selections != nil || root.TypesInfo.Implicits != nil {
		t.Error("Scopes, Selections or Implicits were kept")
	}
}
