package schemapatch

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// What generations share.
//
// A type's own (unflattened) schema depends only on the type's view: its
// markers and those of its fields. Every other named type it uses is a
// reference ($ref), resolved by flattening, which each generation does for
// itself. So a type whose view is the same in every gate set (it has no
// gated field and no FeatureGate-aware marker, on itself or on a field) has
// the same view and the same schema in every generation: the first
// generation that needs them builds them, the others take them. A type
// nested under such a type may still be gate-dependent: it is a reference,
// built by each generation from its own view.
//
// Shared views and schemas are never modified: controller-tools only reads
// the TypeInfos in Parser.Types, and its flattener deep-copies a schema
// before editing it.

// indexedType is one type of an indexed package.
type indexedType struct {
	info *markers.TypeInfo
	// independent is set when the type's view is the same in every gate
	// set (gateIndependent).
	independent bool
	// view and problems are the view of an independent type and the
	// problems building it found (reported again by every generation, each
	// of which fails with them), once a generation built it.
	view     *markers.TypeInfo
	problems []nodeProblems
	// schema is the unflattened schema of an independent type, once a
	// generation built it.
	schema *apiextensionsv1.JSONSchemaProps
}

// gateAwareNames are the FeatureGate-aware markers (bindMarkers).
var gateAwareNames = []string{markerdefs.GateAwareEnumName, markerdefs.GateAwareMaxItemsName, markerdefs.GateAwareXValidationNm}

// gateIndependent reports whether a type looks the same in every gate set:
// no FeatureGate-aware marker on it, and no gated field and no
// FeatureGate-aware marker on any of its fields.
func gateIndependent(info *markers.TypeInfo) bool {
	if hasGateAware(info.Markers) {
		return false
	}
	for _, f := range info.Fields {
		if len(f.Markers[markerdefs.EnableFeatureGateName]) > 0 || hasGateAware(f.Markers) {
			return false
		}
	}
	return true
}

func hasGateAware(values markers.MarkerValues) bool {
	for _, name := range gateAwareNames {
		if len(values[name]) > 0 {
			return true
		}
	}
	return false
}

// viewOf returns this generation's view of t, reporting its problems: the
// shared view of an independent type (built on first use), a view of its
// own otherwise.
func (g *generation) viewOf(pkg *loader.Package, t *indexedType) *markers.TypeInfo {
	view, problems := t.view, t.problems
	if view == nil {
		view, problems = g.view(pkg, t.info)
		if t.independent {
			t.view, t.problems = view, problems
		}
	}
	for _, p := range problems {
		g.report(pkg, p.node, p.problems)
	}
	return view
}

// share records the schemas this generation's parser built for
// independent types that no generation shared yet, for the generations
// that index their packages later.
func (g *generation) share() {
	for id, schema := range g.parser.Schemata {
		t := g.univ.types[id]
		if t == nil || !t.independent || t.schema != nil {
			continue
		}
		s := schema
		t.schema = &s
	}
}
