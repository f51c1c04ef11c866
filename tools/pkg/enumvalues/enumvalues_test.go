package enumvalues

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"testing"
)

// sources maps import paths to the source of one file each; "api" declares
// the enum types, the others use them.
type sources map[string]string

// check type-checks every package of src (each may import the others) and
// returns them in the order of paths.
func check(t *testing.T, src sources, paths ...string) []*types.Package {
	t.Helper()
	fset := token.NewFileSet()
	done := map[string]*types.Package{}
	var imp importerFunc
	imp = func(path string) (*types.Package, error) {
		if p, ok := done[path]; ok {
			return p, nil
		}
		code, ok := src[path]
		if !ok {
			return importer.Default().Import(path)
		}
		f, err := parser.ParseFile(fset, path+".go", code, 0)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: imp}
		p, err := conf.Check(path, fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		done[path] = p
		return p, nil
	}
	var out []*types.Package
	for _, path := range paths {
		p, err := imp(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func TestOf(t *testing.T) {
	const api = `package api
type Colour string
const (
	Red Colour = "Red"
	Green Colour = "Green"
	Default = Red            // same value again: de-duplicated
	Mixed Colour = "Ye" + "llow" // not a single literal
	Shade = Colour(Base)     // defined from an untyped constant
	Base = "Blue"
	untypedOnly = "NotAColour" // untyped: not a value
)
var NotConst Colour = "Purple"
type Size int
const Small Size = 1
type Empty string
type Alias = Colour
`
	const other = `package other
import "example.com/api"
const (
	Orange api.Colour = "Orange"
	Again = api.Green          // other package, from another constant
	Pink = api.Colour("Pink")
)
`
	src := sources{"example.com/api": api, "example.com/other": other}
	pkgs := check(t, src, "example.com/api", "example.com/other")
	apiPkg := pkgs[0]
	named := func(name string) *types.Named {
		return apiPkg.Scope().Lookup(name).Type().(*types.Named)
	}
	cases := []struct {
		name    string
		typ     string
		pkgs    []*types.Package
		want    []string
		wantErr string
	}{
		{name: "own package only", typ: "Colour", pkgs: pkgs[:1], want: []string{"Blue", "Green", "Red", "Yellow"}},
		{name: "across packages", typ: "Colour", pkgs: pkgs, want: []string{"Blue", "Green", "Orange", "Pink", "Red", "Yellow"}},
		{name: "package order does not matter", typ: "Colour", pkgs: []*types.Package{pkgs[1], pkgs[0]}, want: []string{"Blue", "Green", "Orange", "Pink", "Red", "Yellow"}},
		{name: "not a string type", typ: "Size", pkgs: pkgs, wantErr: "type Size is not a string type (its underlying type is int)"},
		{name: "no constants", typ: "Empty", pkgs: pkgs, wantErr: "no constant of type Empty is declared in the loaded packages"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Of(named(c.typ), c.pkgs)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("values = %q, want %q", got, c.want)
			}
		})
	}
}
