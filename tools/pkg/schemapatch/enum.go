package schemapatch

import (
	"fmt"
	"go/types"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/enumvalues"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

// enumConflicts are the markers that also set a type's enum. With +enum on
// the same type, the result would depend on controller-tools' random
// application order, so the combination is rejected.
var enumConflicts = []string{"kubebuilder:validation:Enum", markerdefs.GateAwareEnumName, crdmarkers.K8sEnumTag}

// enumResult is the outcome of computing a +enum type's values, shared by
// every generation.
type enumResult struct {
	values []string
	err    error
}

// bindEnum replaces a type's +enum value by a bound enum holding the values
// of the type's constants. Like bindMarkers it never modifies values; it
// returns them unchanged when there is no +enum or when the repository did
// not opt in (Input.EnumFromConstants): then +enum has no schema effect, as
// in the reference generator, which does not know the marker (openshift/api
// writes it for openapi-gen next to +kubebuilder:validation:Enum). The
// +enum is dropped (and a problem returned) when it conflicts with another
// enum marker or when the values cannot be computed.
func (g *generation) bindEnum(pkg *loader.Package, info *markers.TypeInfo, values markers.MarkerValues) (markers.MarkerValues, []markerProblem) {
	if !g.univ.enumFromConstants || len(values[markerdefs.EnumName]) == 0 {
		return values, nil
	}
	out := make(markers.MarkerValues, len(values))
	for name, vals := range values {
		out[name] = vals
	}
	delete(out, markerdefs.EnumName)
	var problems []markerProblem
	for _, other := range enumConflicts {
		if len(values[other]) == 0 {
			continue
		}
		file, line, _ := g.univ.goload.MarkerLines(pkg).Locate(g.univ.goload.Fset, markerpos.Type(info), other, 0)
		problems = append(problems, markerProblem{name: markerdefs.EnumName, err: fmt.Errorf(
			"cannot be combined with +%s (%s) on the same type: both set the enum; keep one", other, diag.Position{File: g.univ.problems.rel(file), Line: line})})
	}
	if len(problems) > 0 {
		return out, problems
	}
	res := g.univ.enumOf(pkg, info)
	if res.err != nil {
		return out, []markerProblem{{name: markerdefs.EnumName, err: res.err}}
	}
	out[markerdefs.EnumName] = []any{boundEnum{values: res.values}}
	return out, nil
}

// fieldEnumProblems rejects +enum on a field when the repository opted in:
// the marker describes a type.
func (g *generation) fieldEnumProblems(values markers.MarkerValues) []markerProblem {
	if !g.univ.enumFromConstants || len(values[markerdefs.EnumName]) == 0 {
		return nil
	}
	return []markerProblem{{name: markerdefs.EnumName, err: fmt.Errorf(
		"must be set on a string type, not on a field: declare a type for the field's values and put +enum on it")}}
}

// withoutFieldEnum drops a field's (rejected) +enum so that no generation
// applies it.
func withoutFieldEnum(values markers.MarkerValues) markers.MarkerValues {
	if len(values[markerdefs.EnumName]) == 0 {
		return values
	}
	out := make(markers.MarkerValues, len(values))
	for name, vals := range values {
		if name != markerdefs.EnumName {
			out[name] = vals
		}
	}
	return out
}

// enumOf computes, once per run, the values of the +enum type info of pkg
// from the constants of every loaded package that can refer to the type:
// its own package and those importing it, directly or not.
func (u *universe) enumOf(pkg *loader.Package, info *markers.TypeInfo) enumResult {
	pkg.NeedTypesInfo()
	var obj types.Object
	if pkg.TypesInfo != nil && info.RawSpec != nil {
		obj = pkg.TypesInfo.Defs[info.RawSpec.Name]
	}
	if res, ok := u.enums[obj]; ok && obj != nil {
		return res
	}
	named, ok := types.Unalias(typeOf(obj)).(*types.Named)
	if !ok {
		return enumResult{err: fmt.Errorf("type %s: cannot be type-checked", info.Name)}
	}
	var scopes []*types.Package
	for _, p := range u.closure {
		if !u.dependsOn(p, pkg) {
			continue
		}
		p.NeedTypesInfo()
		scopes = append(scopes, p.Types)
	}
	values, err := enumvalues.Of(named, scopes)
	res := enumResult{values: values, err: err}
	u.enums[obj] = res
	return res
}

func typeOf(obj types.Object) types.Type {
	if obj == nil {
		return nil
	}
	return obj.Type()
}

// dependsOn reports whether p is target or imports it, directly or not.
func (u *universe) dependsOn(p, target *loader.Package) bool {
	key := [2]*loader.Package{p, target}
	if d, ok := u.deps[key]; ok {
		return d
	}
	u.deps[key] = false // breaks import cycles, which go/packages reports anyway
	d := p == target
	for _, imp := range p.Imports() {
		if d {
			break
		}
		d = u.dependsOn(imp, target)
	}
	u.deps[key] = d
	return d
}
