package schemapatch

import (
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// What generations share.
//
// A type's own (unflattened) schema depends only on the type's view: its
// markers and those of its fields. Every other named type it uses is a
// reference ($ref), resolved by flattening, which each generation does for
// itself. A view depends on the gate set only through the gates the
// type's markers and its fields' name (whether a field's
// +openshift:enable:FeatureGate gates, and a FeatureGate-aware marker's
// condition, are in the set), so generations whose gate sets agree on
// those gates have the same view and the same schema of the type:
//
//   - a type that names no gate (no gated field and no FeatureGate-aware
//     marker, on itself or on a field) looks the same in every gate set:
//     the first generation that needs its view builds it, and its schema
//     once it built one; the others take them;
//   - a gate-dependent type's view and schema are shared once a generation
//     built the schema, with the generations whose gate sets hold the same
//     of the type's gates (its activation). Its view's bound markers report
//     problems to the generation that built it when its schema is built:
//     they are kept with the schema and reported again, like the view's
//     own, by every generation that takes it.
//
// A type nested under a shared type may still be gate-dependent in
// another way: it is a reference, built by each generation from its own
// view or taken for its own activation.
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
	// gates are the gates a gate-dependent type's view depends on, sorted;
	// byActivation holds its shared views and schemas by activation.
	gates        []string
	byActivation map[string]*sharedView
}

// sharedView is a gate-dependent type's view and schema for one
// activation, and every problem building and applying the view found.
type sharedView struct {
	view     *markers.TypeInfo
	problems []nodeProblems
	schema   *apiextensionsv1.JSONSchemaProps
}

// ownView is a gate-dependent type's view that a generation built, until
// share offers it.
type ownView struct {
	activation string
	view       *markers.TypeInfo
	problems   []nodeProblems
	// applied are the problems its bound markers reported when applied.
	applied []nodeProblems
}

func newIndexedType(info *markers.TypeInfo) *indexedType {
	t := &indexedType{info: info, independent: gateIndependent(info)}
	if !t.independent {
		t.gates = namedGates(info)
		t.byActivation = map[string]*sharedView{}
	}
	return t
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

// namedGates returns the gates the markers of a type and of its fields
// name, whose presence in a gate set decides what the type's view holds
// (fieldIncluded, markerdefs.Condition.Active), sorted and without
// repetition.
func namedGates(info *markers.TypeInfo) []string {
	var names []string
	add := func(values markers.MarkerValues) {
		for _, name := range gateAwareNames {
			for _, v := range values[name] {
				if ga, ok := v.(markerdefs.GateAware); ok {
					cond := ga.GateCondition()
					names = append(names, cond.FeatureGate...)
					names = append(names, cond.RequiredFeatureGate...)
				}
			}
		}
		for _, v := range values[markerdefs.EnableFeatureGateName] {
			if list, ok := v.(markerdefs.EnableFeatureGate); ok {
				names = append(names, list...)
			}
		}
	}
	add(info.Markers)
	for _, f := range info.Fields {
		add(f.Markers)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// activation tells which of t's gates are in gates: generations with the
// same activation have the same view of t.
func (t *indexedType) activation(gates markerdefs.GateSet) string {
	var b strings.Builder
	for _, g := range t.gates {
		if gates[g] {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// viewOf returns this generation's view of t, reporting its problems, and
// its schema when another generation built it: the shared view of an
// independent type (built on first use), the shared view and schema of a
// gate-dependent type's activation, or a view of its own.
func (g *generation) viewOf(pkg *loader.Package, id crd.TypeIdent, t *indexedType) (*markers.TypeInfo, *apiextensionsv1.JSONSchemaProps) {
	if t.independent {
		if t.view == nil {
			t.view, t.problems = g.view(pkg, t.info, nil)
			g.univ.views++
		}
		g.reportAll(pkg, t.problems)
		return t.view, t.schema
	}
	activation := t.activation(g.gates)
	if s := t.byActivation[activation]; s != nil {
		g.reportAll(pkg, s.problems)
		return s.view, s.schema
	}
	own := &ownView{activation: activation}
	own.view, own.problems = g.view(pkg, t.info, &own.applied)
	g.univ.views++
	g.own[id] = own
	g.reportAll(pkg, own.problems)
	return own.view, nil
}

func (g *generation) reportAll(pkg *loader.Package, problems []nodeProblems) {
	for _, p := range problems {
		g.report(pkg, p.node, p.problems)
	}
}

// share records the schemas this generation's parser built, of
// independent types and of the activations of gate-dependent ones that
// no generation shared yet, for the generations that index their
// packages later.
func (g *generation) share() {
	for id, schema := range g.parser.Schemata {
		t := g.univ.types[id]
		switch {
		case t == nil:
		case t.independent:
			if t.schema == nil {
				s := schema
				t.schema = &s
			}
		default:
			own := g.own[id]
			if own == nil || t.byActivation[own.activation] != nil {
				continue
			}
			s := schema
			problems := slices.Concat(own.problems, own.applied)
			t.byActivation[own.activation] = &sharedView{view: own.view, problems: problems, schema: &s}
			delete(g.own, id)
		}
	}
}
