package schemapatch

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/features/payload"
)

// Enum on a field and on its type, as the pre-version reference wrote it.
//
// When a field carries an enum (+kubebuilder:validation:Enum or a bound
// FeatureGate-aware enum) and so does the named type it refers to, the
// flattener has to combine two enums at one node: the field's own schema
// is {$ref: T, enum: field's}, the flattener turns it into
// {allOf: [T's schema, {enum: field's}]} and then folds that allOf into
// the node. controller-tools v0.23 (pkg/crd/flatten.go, case "Enum")
// keeps the enum already there, the type's, and drops the field's. The
// controller-tools of the pre-version reference (before February 2026)
// had no such case: Enum fell into resolveFieldConflict's default branch,
// which hoists both values into allOf, even when the lists are equal:
//
//	allOf:
//	- enum: [type's values]
//	- enum: [field's values]
//
// with no enum left on the node. Real trees of that era (openshift/api's
// AutomatedEtcdBackup retentionType, ConsoleSample source.type) are
// committed in that shape, so in those eras (legacyEnumEra) stage 2
// rewrites the flattened schema of each kind accordingly, without forking
// controller-tools: legacyEnums walks the parser's unflattened schemata
// (where each such node is still a $ref with an enum beside it) alongside
// the flattened schema and redoes, at each node whose $ref chain combines
// two enums, what the old flattener did.
//
// The old flattener folded the chain from the innermost type outwards
// (for a field of type A where `type A B`: B's schema, then A's remainder,
// then the field's), hoisting at each conflict and clearing the node's
// enum, so a later enum in the chain met no conflict; legacyEnums follows
// the same order. When the same fold step also hoisted another keyword
// (say a different maxLength on field and type), v0.23 appended that pair
// already and the old flattener put the enums into it; legacyEnums
// recognises the pair by its keywords (hoistedOwn).

// EraOf is the era Input.Era takes from the payload directory as the run
// read it: the directory's era, or "" (the current behaviour) when it
// could not be read; the merge stage reports that.
func EraOf(d *payload.Directory, err error) payload.Era {
	if err != nil || d == nil {
		return ""
	}
	return d.Era
}

// legacyEnumEra reports whether the reference of era folded a field's and
// its type's enums into allOf (before payload.SeparateEnums). The empty
// era is the current behaviour.
func legacyEnumEra(era payload.Era) bool {
	return !era.Has(payload.SeparateEnums)
}

// legacyEnums returns the flattened schema flat of the type id with every
// node where the old flattener hoisted two enums into allOf rewritten to
// that shape, and whether it changed anything. flat itself is not
// modified: the maps and slices leading to a rewritten node are copied.
func legacyEnums(p *crd.Parser, id crd.TypeIdent, flat apiextensionsv1.JSONSchemaProps) (apiextensionsv1.JSONSchemaProps, bool) {
	u, ok := p.Schemata[id]
	if !ok {
		return flat, false
	}
	w := &legacyEnumWalker{parser: p}
	out, _, changed := w.node(u, id.Package, flat, 0)
	return out, changed
}

type legacyEnumWalker struct {
	parser *crd.Parser
}

// maxLegacyEnumDepth bounds the walk; the flattened schema is finite (the
// flattener cuts reference loops), so it is only a guard.
const maxLegacyEnumDepth = 512

// node walks the unflattened schema u (of package pkg) alongside f, its
// flattened form. It returns f rewritten, the enum the old flattener had
// left on the node after folding u (nil when it hoisted it into allOf),
// and whether f changed.
func (w *legacyEnumWalker) node(u apiextensionsv1.JSONSchemaProps, pkg *loader.Package, f apiextensionsv1.JSONSchemaProps, depth int) (apiextensionsv1.JSONSchemaProps, []apiextensionsv1.JSON, bool) {
	if depth > maxLegacyEnumDepth {
		return f, u.Enum, false
	}
	changed := false
	var inner []apiextensionsv1.JSON
	if u.Ref != nil && *u.Ref != "" {
		if target, tpkg, ok := w.resolve(*u.Ref, pkg); ok {
			var c bool
			f, inner, c = w.node(target, tpkg, f, depth+1)
			changed = changed || c
		}
	}
	// Embedded structs are folded into this node.
	for _, e := range u.AllOf {
		var c bool
		f, _, c = w.node(e, pkg, f, depth+1)
		changed = changed || c
	}
	if len(u.Properties) > 0 && len(f.Properties) > 0 {
		var props map[string]apiextensionsv1.JSONSchemaProps
		for _, name := range slices.Sorted(maps.Keys(u.Properties)) {
			fp, ok := f.Properties[name]
			if !ok {
				continue
			}
			np, _, c := w.node(u.Properties[name], pkg, fp, depth+1)
			if c {
				if props == nil {
					props = maps.Clone(f.Properties)
				}
				props[name] = np
			}
		}
		if props != nil {
			f.Properties, changed = props, true
		}
	}
	if u.Items != nil && u.Items.Schema != nil && f.Items != nil && f.Items.Schema != nil {
		if ni, _, c := w.node(*u.Items.Schema, pkg, *f.Items.Schema, depth+1); c {
			f.Items = &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &ni}
			changed = true
		}
	}
	if u.AdditionalProperties != nil && u.AdditionalProperties.Schema != nil &&
		f.AdditionalProperties != nil && f.AdditionalProperties.Schema != nil {
		if na, _, c := w.node(*u.AdditionalProperties.Schema, pkg, *f.AdditionalProperties.Schema, depth+1); c {
			f.AdditionalProperties = &apiextensionsv1.JSONSchemaPropsOrBool{Allows: f.AdditionalProperties.Allows, Schema: &na}
			changed = true
		}
	}
	// This node's own enum meets the one its $ref chain left.
	switch {
	case len(u.Enum) == 0:
		return f, inner, changed
	case u.Ref == nil:
		return f, u.Enum, changed
	case len(inner) == 0:
		// Nothing to meet: the chain had no enum (f holds this one
		// already) or hoisted its own into allOf (cleared f's), so this
		// one is the node's again.
		if len(f.Enum) == 0 {
			f.Enum, changed = u.Enum, true
		}
		return f, u.Enum, changed
	}
	// Only the node holding the $ref is rewritten: the chain inside it was
	// folded into the same flattened node.
	if n := len(f.AllOf); hoistedOwn(f.AllOf, u) {
		// This fold step hoisted other keywords too: the enums join them.
		f.AllOf = slices.Clone(f.AllOf)
		f.AllOf[n-2].Enum, f.AllOf[n-1].Enum = inner, u.Enum
	} else {
		f.AllOf = append(slices.Clip(f.AllOf),
			apiextensionsv1.JSONSchemaProps{Enum: inner},
			apiextensionsv1.JSONSchemaProps{Enum: u.Enum})
	}
	f.Enum = nil
	return f, nil, true
}

// hoistedOwn reports whether the last two entries of allOf are the pair
// controller-tools v0.23 hoisted when it folded u's own keywords (those
// beside its $ref) into the node: the second holds only keywords of u,
// with u's values, and the first the same keywords. The old flattener put
// the two enums into that same pair.
func hoistedOwn(allOf []apiextensionsv1.JSONSchemaProps, u apiextensionsv1.JSONSchemaProps) bool {
	n := len(allOf)
	if n < 2 {
		return false
	}
	dst, src, own := keywords(allOf[n-2]), keywords(allOf[n-1]), keywords(u)
	if len(src) == 0 || len(src) != len(dst) {
		return false
	}
	for k, v := range src {
		if _, ok := dst[k]; !ok || !reflect.DeepEqual(own[k], v) {
			return false
		}
	}
	return true
}

// keywords returns the keywords a schema sets, by JSON name.
func keywords(s apiextensionsv1.JSONSchemaProps) map[string]any {
	data, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	var out map[string]any
	if json.Unmarshal(data, &out) != nil {
		return nil
	}
	return out
}

// resolve finds the unflattened schema a $ref of package pkg names, as
// the flattener's default LookupReference does.
func (w *legacyEnumWalker) resolve(ref string, pkg *loader.Package) (apiextensionsv1.JSONSchemaProps, *loader.Package, bool) {
	name, pkgPath, err := crd.RefParts(ref)
	if err != nil || pkg == nil {
		return apiextensionsv1.JSONSchemaProps{}, nil, false
	}
	target := pkg
	if pkgPath != "" {
		target = pkg.Imports()[pkgPath]
		if target == nil {
			return apiextensionsv1.JSONSchemaProps{}, nil, false
		}
	}
	s, ok := w.parser.Schemata[crd.TypeIdent{Package: target, Name: name}]
	return s, target, ok
}
