package markerpos

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// The association against the collector itself is tested in
// partialschemas (TestRawAssociationMatchesCollector), which has loaded
// fixtures; these cases pin the rule on parsed source alone.
const src = `package v1

// +a=Detached

// Doc is documented.
// +b=Doc
type Doc struct {
	// +c=One
	One string // +d=Trailing
	// +e=Two
	Two string
}

var x = 1 // +f=AfterVar
type After string
`

func TestAssociate(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "types.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	lines := Lines{}
	associate(f, lines)
	got := map[string]string{}
	for n, ls := range lines {
		var name string
		switch n := n.(type) {
		case *ast.TypeSpec:
			name = n.Name.Name
		case *ast.Field:
			name = n.Names[0].Name
		}
		var texts []string
		for _, l := range ls {
			texts = append(texts, l.Text+"@"+fset.Position(l.Pos).String())
		}
		got[name] = strings.Join(texts, " ")
	}
	want := map[string]string{
		"Doc":   "+a=Detached@types.go:3:1 +b=Doc@types.go:6:1",
		"One":   "+c=One@types.go:8:2",
		"Two":   "+e=Two@types.go:10:2",
		"After": "",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %q, want %q", name, got[name], w)
		}
	}
	var doc ast.Node
	for n := range lines {
		if s, ok := n.(*ast.TypeSpec); ok && s.Name.Name == "Doc" {
			doc = n
		}
	}
	if named := lines.Named(doc, "b"); len(named) != 1 || named[0].Text != "+b=Doc" {
		t.Errorf("Named(Doc, b) = %v", named)
	}
}

func TestIsMarkerAndText(t *testing.T) {
	for _, c := range []struct {
		text, name string
		want       bool
	}{
		{"+a:b=1", "a:b", true},
		{"+a:b", "a:b", true},
		{"+a:b:c=1", "a:b", true},
		{"+a:bc=1", "a:b", false},
		{"a:b=1", "a:b", false},
	} {
		if got := IsMarker(c.text, c.name); got != c.want {
			t.Errorf("IsMarker(%q, %q) = %v", c.text, c.name, got)
		}
	}
	for in, want := range map[string]string{"// +x ": "+x", "/* +y */": "+y", "//+z": "+z"} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
