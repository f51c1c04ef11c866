package partialschemas

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// gateAwareNames are the three FeatureGate-aware markers.
var gateAwareNames = []string{
	markerdefs.GateAwareEnumName,
	markerdefs.GateAwareXValidationNm,
	markerdefs.GateAwareMaxItemsName,
}

// contribution records where a gate entry was first found.
type contribution struct {
	pos  token.Pos
	text string
}

// site is a place in the type walk that can be wrong: a struct field (or
// the root type itself).
type site struct {
	pos token.Pos
	// name is "Type.Field" (or "type Kind" for the root).
	name string
	typ  types.Type
	// pkg declares the field (nil for the root site).
	pkg *types.Package
}

// walker collects the gate entries of one CRD: it visits the
// root type and every type reachable from it through serialised struct
// fields, pointers, slices and maps, across packages, each named type once.
type walker struct {
	r        *run
	crd      *CRD
	visited  map[string]bool
	entries  map[string]contribution
	topLevel map[string]bool
	// path is the chain of Go names from the root type to the current field.
	path []string
	// failed is set when a package on the way could not be indexed.
	failed bool
	// rootPkg is the import path of the root type's package.
	rootPkg string
}

func (r *run) newWalker(crd *CRD) *walker {
	return &walker{
		r:        r,
		crd:      crd,
		visited:  map[string]bool{},
		entries:  map[string]contribution{},
		topLevel: map[string]bool{},
	}
}

// walkRoot walks from the root type declared by spec in idx's package.
func (w *walker) walkRoot(idx *pkgIndex, spec *ast.TypeSpec) {
	obj, ok := idx.pkg.Types.Scope().Lookup(spec.Name.Name).(*types.TypeName)
	if !ok {
		return
	}
	w.path = []string{spec.Name.Name}
	w.rootPkg = idx.pkg.PkgPath
	w.walkType(obj.Type(), site{pos: spec.Name.Pos(), name: "type " + spec.Name.Name, typ: obj.Type()}, true)
}

// walkType visits t, reached at s. root is true only for the root type.
func (w *walker) walkType(t types.Type, s site, root bool) {
	switch t := t.(type) {
	case *types.Alias:
		if t.Obj().Pkg() == nil { // any
			w.walkType(t.Rhs(), s, false)
			return
		}
		key := "=" + types.TypeString(t, nil)
		if w.visited[key] {
			w.recheck(t, s)
			return
		}
		w.visited[key] = true
		w.visitDecl(t.Obj(), root)
		w.walkType(t.Rhs(), s, false)
	case *types.Named:
		if isRuntimeObject(t) {
			return
		}
		key := types.TypeString(t, nil)
		if w.visited[key] {
			w.recheck(t, s)
			return
		}
		w.visited[key] = true
		w.visitDecl(t.Obj(), root)
		if st, ok := t.Underlying().(*types.Struct); ok {
			w.walkStruct(st, t.Obj().Name())
			return
		}
		w.walkType(t.Underlying(), s, false)
	case *types.Basic:
		if t.Kind() == types.Invalid {
			w.unresolved(s)
		}
	case *types.Pointer:
		w.walkType(t.Elem(), s, false)
	case *types.Slice:
		w.walkType(t.Elem(), s, false)
	case *types.Map:
		w.walkType(t.Key(), s, false)
		w.walkType(t.Elem(), s, false)
	case *types.Struct:
		w.walkStruct(t, strings.TrimPrefix(s.name, "type "))
	default:
		w.unsupported(s, unsupportedReason(t))
	}
}

// recheck reports a field whose already visited named type cannot be
// part of a CRD type at all, so that every such field is named, not only
// the first one.
func (w *walker) recheck(t types.Type, s site) {
	under := types.Unalias(t).Underlying()
	if _, ok := under.(*types.Interface); ok {
		if n, isNamed := types.Unalias(t).(*types.Named); isNamed && isRuntimeObject(n) {
			return
		}
	}
	switch under.(type) {
	case *types.Array, *types.Chan, *types.Signature, *types.Interface:
		w.unsupported(s, unsupportedReason(under))
	}
}

// unsupportedReason says why a type the walk cannot enter is rejected.
func unsupportedReason(t types.Type) string {
	switch t.(type) {
	case *types.Array:
		return "arrays are not supported in CRD types; use a slice"
	case *types.Chan:
		return "channels cannot be part of a CRD type"
	case *types.Signature:
		return "functions cannot be part of a CRD type"
	case *types.Interface:
		return "interfaces other than runtime.Object are not supported in CRD types"
	case *types.TypeParam:
		return "type parameters are not supported in CRD types"
	}
	return "this kind of type is not supported in CRD types"
}

// walkStruct visits every serialised field of st. Fields without a json
// tag, or tagged json:"-", are not part of the schema and are skipped.
func (w *walker) walkStruct(st *types.Struct, owner string) {
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		tag, ok := reflect.StructTag(st.Tag(i)).Lookup("json")
		if !ok || tag == "-" {
			continue
		}
		w.visitField(f)
		w.path = append(w.path, f.Name())
		w.walkType(f.Type(), site{pos: f.Pos(), name: owner + "." + f.Name(), typ: f.Type(), pkg: f.Pkg()}, false)
		w.path = w.path[:len(w.path)-1]
	}
}

func isRuntimeObject(n *types.Named) bool {
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "k8s.io/apimachinery/pkg/runtime" && obj.Name() == "Object"
}

// unsupported reports a field whose type stage 1 cannot walk.
func (w *walker) unsupported(s site, why string) {
	file, line := w.r.position(s.pos)
	typ := "?"
	if s.typ != nil {
		typ = types.TypeString(s.typ, func(p *types.Package) string { return p.Name() })
	}
	w.r.problems.Add(diag.Errorf(file, line, s.name, "has type %s: %s (reached from %s)", typ, why, strings.Join(w.path, ".")))
}

// unresolved reports a field whose type did not type-check, with the
// compiler's messages for that line when there are any.
func (w *walker) unresolved(s site) {
	why := "the type of this field cannot be resolved"
	if s.pkg != nil {
		if lp := w.r.indexes.pkg(s.pkg.Path()); lp != nil && w.r.fset != nil {
			p := w.r.fset.Position(s.pos)
			if msgs := typeErrorsAt(lp, p.Filename, p.Line); len(msgs) > 0 {
				why += ": " + strings.Join(msgs, "; ")
			}
		}
	}
	file, line := w.r.position(s.pos)
	w.r.problems.Add(diag.Errorf(file, line, s.name, "%s (reached from %s)", why, strings.Join(w.path, ".")))
}

// indexFor returns the index of the package declaring an object, or nil
// when it is outside the universe (the standard library's universe scope).
func (w *walker) indexFor(p *types.Package) *pkgIndex {
	if p == nil {
		return nil
	}
	lp := w.r.indexes.pkg(p.Path())
	if lp == nil {
		return nil
	}
	idx := w.r.index(lp)
	if idx.failed {
		w.failed = true
	}
	return idx
}

// visitDecl reads the gate markers of a type declaration of a package
// whose type-level markers the reference sees (Input.OwnPackageTypeMarkers).
func (w *walker) visitDecl(obj *types.TypeName, root bool) {
	idx := w.indexFor(obj.Pkg())
	if idx == nil {
		return
	}
	spec := idx.specAt[obj.Pos()]
	if spec == nil {
		return
	}
	if path := obj.Pkg().Path(); path != w.rootPkg && !w.r.typeMarkerPackages[path] {
		w.unseenTypeMarkers(idx, spec)
		return
	}
	w.gateMarkers(idx, spec, markers.DescribesType, root)
}

// unseenTypeMarkers warns about the gate markers of a type declaration
// that the reference does not see.
func (w *walker) unseenTypeMarkers(idx *pkgIndex, spec ast.Node) {
	which := "outside the group-versions of the run"
	if w.r.typeMarkerPackages == nil {
		which = "outside the CRD's package, which the reference of this tree's era (before 2025-11-05) does not see"
	}
	for _, name := range append([]string{markerdefs.EnableFeatureGateName}, gateAwareNames...) {
		for _, v := range idx.markersOf(w.r, spec, name, markers.DescribesType) {
			w.warnAt(contribution{pos: v.Pos, text: v.Text}, "CRD %s reaches this type, whose type-level markers are ignored because its package is %s: "+
				"the marker gives that CRD no partial manifest and no rule; put it on the field instead", w.crd.Kind, which)
		}
	}
}

// visitField reads the gate markers of a struct field.
func (w *walker) visitField(f *types.Var) {
	idx := w.indexFor(f.Pkg())
	if idx == nil {
		return
	}
	field := idx.fieldAt[f.Pos()]
	if field == nil {
		return
	}
	w.gateMarkers(idx, field, markers.DescribesField, false)
}

// gateMarkers validates the gate markers of node and records their entries.
func (w *walker) gateMarkers(idx *pkgIndex, node ast.Node, target markers.TargetType, root bool) {
	for _, v := range idx.markersOf(w.r, node, markerdefs.EnableFeatureGateName, target) {
		names := v.Value.(markerdefs.EnableFeatureGate)
		if w.checkEnableSpelling(v) {
			continue
		}
		for _, name := range names {
			if !w.checkGateName(v, "", name) {
				continue
			}
			w.add(name, v)
			if root {
				w.topLevel[name] = true
			}
		}
	}
	for _, name := range gateAwareNames {
		for _, v := range idx.markersOf(w.r, node, name, target) {
			cond := v.Value.(markerdefs.GateAware).GateCondition()
			if !w.checkCondition(v, name, cond) {
				continue
			}
			for _, e := range cond.Entries() {
				w.add(e, v)
			}
		}
	}
}

// checkEnableSpelling rejects an +openshift:enable:FeatureGate value written
// with quotes or empty; it reports and returns true when the marker is bad.
func (w *walker) checkEnableSpelling(v markerValue) bool {
	bad := false
	for _, el := range rawListElements(rawAnonymousValue(v.Text, markerdefs.EnableFeatureGateName)) {
		switch {
		case el == `""` || el == "``":
			w.errorAt(v, "names an empty gate: give the gate name, e.g. +%s=MyGate", markerdefs.EnableFeatureGateName)
			bad = true
		case isQuoted(el):
			w.errorAt(v, "gate name %s is quoted: write it without quotes", el)
			bad = true
		}
	}
	return bad
}

// checkCondition validates the gate lists of a FeatureGate-aware marker:
// their spelling here (quotes survive only in the written text), their
// content in markerdefs.Condition.Problems.
func (w *walker) checkCondition(v markerValue, name string, cond markerdefs.Condition) bool {
	if len(cond.FeatureGate) == 0 && len(cond.RequiredFeatureGate) == 0 {
		w.errorAt(v, "%s", cond.Problems()[0])
		return false
	}
	ok := true
	args := rawArguments(v.Text, name)
	for _, el := range rawListElements(args["featureGate"]) {
		if isQuoted(el) && el != `""` {
			w.errorAt(v, `featureGate: gate name %s is quoted: write it without quotes (only the exact "" means ungated)`, el)
			ok = false
		}
	}
	for _, el := range rawListElements(args["requiredFeatureGate"]) {
		if el == `""` || el == "``" {
			continue // reported below as an empty name
		}
		if isQuoted(el) {
			w.errorAt(v, "requiredFeatureGate: gate name %s is quoted: write it without quotes", el)
			ok = false
		}
	}
	if !ok {
		return false
	}
	for _, p := range cond.Problems() {
		w.errorAt(v, "%s", p)
		ok = false
	}
	return ok
}

// checkGateName reports a name that cannot be a gate.
func (w *walker) checkGateName(v markerValue, prefix, name string) bool {
	if p := markerdefs.GateNameProblem(name); p != "" {
		w.errorAt(v, "%s%s", prefix, p)
		return false
	}
	return true
}

func (w *walker) errorAt(v markerValue, format string, args ...any) {
	file, line := w.r.position(v.Pos)
	w.r.problems.Add(diag.Errorf(file, line, v.Text, format, args...))
}

func (w *walker) warnAt(c contribution, format string, args ...any) {
	file, line := w.r.position(c.pos)
	w.r.problems.Add(diag.Warningf(file, line, c.text, format, args...))
}

func (w *walker) add(entry string, v markerValue) {
	if _, ok := w.entries[entry]; !ok {
		w.entries[entry] = contribution{pos: v.Pos, text: v.Text}
	}
}

// gates returns the sorted gate entries and top-level gates, and warns
// about entries that mean the same as another one and about nested gates
// of a type-gated CRD.
func (w *walker) gates() (entries, topLevel []string) {
	entries = make([]string, 0, len(w.entries))
	for e := range w.entries {
		entries = append(entries, e)
	}
	sort.Strings(entries)
	topLevel = make([]string, 0, len(w.topLevel))
	for g := range w.topLevel {
		topLevel = append(topLevel, g)
	}
	sort.Strings(topLevel)

	byMeaning := map[string][]string{}
	for _, e := range entries {
		parts := splitEntry(e)
		sort.Strings(parts)
		key := strings.Join(parts, "+")
		byMeaning[key] = append(byMeaning[key], e)
	}
	for _, e := range entries {
		parts := splitEntry(e)
		sort.Strings(parts)
		same := byMeaning[strings.Join(parts, "+")]
		if len(same) > 1 && same[0] != e {
			first := w.entries[same[0]]
			w.warnAt(w.entries[e], "produces %s, which means the same as %s (from %s, %s): write the required gates in one order everywhere",
				FileName(e), FileName(same[0]), w.r.lineOf(first.pos), first.text)
		}
	}
	if len(topLevel) > 0 {
		for _, e := range entries {
			if w.topLevel[e] {
				continue
			}
			carries := false
			for _, part := range splitEntry(e) {
				carries = carries || w.topLevel[part]
			}
			if !carries {
				w.warnAt(w.entries[e], "CRD %s is gated by %s at the type level, but this marker gives it %s, which does not carry that gate: the CRD will be installed when only %s is enabled",
					w.crd.Kind, strings.Join(topLevel, ", "), FileName(e), strings.Join(splitEntry(e), " and "))
			}
		}
	}
	return entries, topLevel
}
