package crdvalidate

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// sourcesTypes is the Go file TestLocateMarker reads; the test finds the
// line numbers it expects by the marker text.
const sourcesTypes = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a kind.
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	// spec is the wanted state.
	Spec WidgetSpec ` + "`json:\"spec\"`" + `
}

// WidgetSpec is the wanted state of a Widget.
type WidgetSpec struct {
	// name names the widget.
	// +openshift:enable:FeatureGate=Example
	// +optional
	Name Name ` + "`json:\"name,omitempty\"`" + `
	// tags label it.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3
	// +optional
	Tags []Tag ` + "`json:\"tags,omitempty\"`" + `
}

// Name is a widget's name.
// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A;B
type Name string

// Tag is a label.
// +openshift:validation:FeatureGateAwareEnum:featureGate=Other,enum=X;Y
type Tag string
`

// TestLocateMarker checks the marker lookup behind the gate pages: the
// field's own markers first, then the markers of the node's named type;
// list items never take the list field's markers. The empty path leads to
// the kind's type declaration (where the required annotations point).
func TestLocateMarker(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		"widgets/v1/doc.go": "// +groupName=widgets.example.io\n// +openshift:featuregated-schema-gen=true\npackage v1\n",
		"widgets/v1/register.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n" +
			"var GroupVersion = schema.GroupVersion{Group: \"widgets.example.io\", Version: \"v1\"}\n",
		"widgets/v1/types.go": sourcesTypes,
	})
	disc, u := testload.Load(t, base, nil)
	packages := map[string]string{}
	for _, v := range disc.Versions() {
		packages[v.Group+"/"+v.Version] = v.ImportPath
	}
	src := NewSources(u, packages)
	typesFile := filepath.Join(base, "widgets", "v1", "types.go")
	const root = "spec.versions[0].schema.openAPIV3Schema"
	gate := func(name string) func(any) bool {
		return func(v any) bool {
			switch m := v.(type) {
			case markerdefs.EnableFeatureGate:
				return slices.Contains(m, name)
			case markerdefs.GateAware:
				return m.GateCondition().Active(markerdefs.NewGateSet(name))
			}
			return false
		}
	}
	for _, tc := range []struct {
		name, kind, path, marker, gate string
		want                           string // the marker line expected, "" for none
	}{
		{"field marker", "Widget", ".properties[spec].properties[name]", markerdefs.EnableFeatureGateName, "Example",
			"// +openshift:enable:FeatureGate=Example"},
		{"field marker, no match", "Widget", ".properties[spec].properties[name]", markerdefs.EnableFeatureGateName, "Other", ""},
		{"type marker behind a field", "Widget", ".properties[spec].properties[name]", markerdefs.GateAwareEnumName, "Example",
			"// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A;B"},
		{"list field marker", "Widget", ".properties[spec].properties[tags]", markerdefs.GateAwareMaxItemsName, "Example",
			"// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3"},
		{"items: the item type's marker", "Widget", ".properties[spec].properties[tags].items", markerdefs.GateAwareEnumName, "Other",
			"// +openshift:validation:FeatureGateAwareEnum:featureGate=Other,enum=X;Y"},
		{"items never take the list's markers", "Widget", ".properties[spec].properties[tags].items", markerdefs.GateAwareMaxItemsName, "Example", ""},
		{"unknown kind", "Gadget", ".properties[spec]", markerdefs.EnableFeatureGateName, "Example", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := src.LocateMarker("widgets.example.io", "v1", tc.kind, root+tc.path, tc.marker, gate(tc.gate))
			if tc.want == "" {
				if ok {
					t.Fatalf("found %+v, want nothing", p)
				}
				return
			}
			line := slices.Index(strings.Split(sourcesTypes, "\n"), "\t"+tc.want) + 1
			if line == 0 {
				line = slices.Index(strings.Split(sourcesTypes, "\n"), tc.want) + 1
			}
			if !ok || p.File != typesFile || p.Line != line || "// "+p.Marker != strings.TrimSpace(tc.want) {
				t.Fatalf("got %+v (ok %v), want %s:%d %s", p, ok, typesFile, line, tc.want)
			}
		})
	}
	t.Run("the kind's declaration", func(t *testing.T) {
		line := slices.Index(strings.Split(sourcesTypes, "\n"), "type Widget struct {") + 1
		if p, ok := src.Locate("widgets.example.io", "v1", "Widget", "", ""); !ok || p.File != typesFile || p.Line != line || p.Marker != "" {
			t.Fatalf("got %+v (ok %v), want %s:%d", p, ok, typesFile, line)
		}
		if p, ok := src.Locate("widgets.example.io", "v1", "Gadget", "", ""); ok {
			t.Fatalf("an unknown kind: got %+v", p)
		}
	})
}
