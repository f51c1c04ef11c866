package partialschemas

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

// layoutSource holds comment layouts gofmt would not keep (two blank
// lines) next to ordinary ones.
const layoutSource = `package v1

// +openshift:enable:FeatureGate=TwoBlankLines


// Distant has its marker block two blank lines above its godoc.
type Distant string

// +openshift:enable:FeatureGate=Orphan

// +openshift:enable:FeatureGate=Closest

// Second is documented below the closest block; the one above that is lost.
type Second string

/* +openshift:enable:FeatureGate=BlockComment */
type Blocky string

type Fields struct {
	// +openshift:enable:FeatureGate=A


	// doc of One
	// +openshift:enable:FeatureGate=B
	One string ` + "`json:\"one\"`" + ` // +openshift:enable:FeatureGate=Trailing
	Two string ` + "`json:\"two\"`" + `

	// +openshift:enable:FeatureGate=C
	Three struct {
		// +openshift:enable:FeatureGate=D
		Four string ` + "`json:\"four\"`" + `
	} ` + "`json:\"three\"`" + `
}

var x = 1 // +openshift:enable:FeatureGate=AfterVar
type AfterVar string
`

// TestRawAssociationMatchesCollector checks that the marker lines
// markerpos pairs with each type and field (for every stage) are exactly those the controller-tools
// collector associates with it, on the fixtures and on layouts gofmt would
// rewrite.
func TestRawAssociationMatchesCollector(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		"layout/v1/doc.go":      "// +groupName=layout.example.io\npackage v1\n",
		"layout/v1/register.go": "package v1\n\nvar GroupVersion = struct{ Group, Version string }{Group: \"layout.example.io\", Version: \"v1\"}\n",
		"layout/v1/layout.go":   layoutSource,
	})
	layout := loadTree(t, base, nil)
	gates := loadFixture(t, "gates", nil)
	example := loadFixture(t, "example", nil)
	checked := 0
	for _, f := range []*fixture{layout, gates, example} {
		for _, pkg := range f.u.Roots {
			values, err := f.u.Collector.MarkersInPackage(pkg)
			if err != nil {
				t.Fatalf("%s: %v", pkg.PkgPath, err)
			}
			raw := markerpos.Of(pkg)
			names := func(n ast.Node) string {
				target := markers.DescribesType
				if _, ok := n.(*ast.Field); ok {
					target = markers.DescribesField
				}
				var out []string
				for _, rm := range raw[n] {
					if def := f.u.Registry.Lookup(rm.Text, target); def != nil {
						out = append(out, def.Name+" "+rm.Text)
					}
				}
				sort.Strings(out)
				return strings.Join(out, "\n")
			}
			collected := func(n ast.Node) string {
				var out []string
				for name, vals := range values[n] {
					for range vals {
						out = append(out, name)
					}
				}
				sort.Strings(out)
				return strings.Join(out, "\n")
			}
			seen := map[ast.Node]bool{}
			for n := range values {
				switch n.(type) {
				case *ast.TypeSpec, *ast.Field:
					seen[n] = true
				}
			}
			for n := range raw {
				seen[n] = true
			}
			for n := range seen {
				var rawNames []string
				for _, line := range strings.Split(names(n), "\n") {
					if line != "" {
						rawNames = append(rawNames, strings.SplitN(line, " ", 2)[0])
					}
				}
				if got, want := strings.Join(rawNames, "\n"), collected(n); got != want {
					p := pkg.Fset.Position(n.Pos())
					t.Errorf("%s: raw association\n%s\ncollector\n%s", p, names(n), want)
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d nodes checked", checked)
	}
	// The layouts the test is about must actually carry what the collector
	// associates, or the comparison above proves nothing.
	pkg := layout.u.Roots[0]
	values, _ := layout.u.Collector.MarkersInPackage(pkg)
	got := map[string]string{}
	for n, vals := range values {
		spec, ok := n.(*ast.TypeSpec)
		if !ok {
			continue
		}
		got[spec.Name.Name] = fmt.Sprint(vals[markerdefsEnable])
	}
	want := map[string]string{
		"Distant":  "[[TwoBlankLines]]",
		"Second":   "[[Closest]]",
		"Blocky":   "[]",
		"Fields":   "[]",
		"AfterVar": "[]",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("collector gives %s %s, want %s", name, got[name], w)
		}
	}
}

const markerdefsEnable = "openshift:enable:FeatureGate"
