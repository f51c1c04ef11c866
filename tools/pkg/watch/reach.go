package watch

import (
	"go/types"
	"slices"
	"strings"
)

// typeRefs is the graph of the named types the root packages of the
// cycles so far declare and refer to, by "<import path>.<name>": an edge
// from a type to every named type its declaration mentions (field types,
// element, key and pointer types, type arguments, an alias's target), not
// following methods. A CRD's schema and partial manifests are built from
// the declarations its root type reaches in this graph, so a change to
// other declarations cannot change them. Each successful cycle records
// the packages it type-checked; the entries of packages it did not check
// stay, as their declarations did not change.
type typeRefs struct {
	refs map[string][]string
	// roots are the types each group-version's package declares.
	roots map[string][]string
}

func typeKey(tn *types.TypeName) string {
	if tn.Pkg() == nil {
		return tn.Name()
	}
	return tn.Pkg().Path() + "." + tn.Name()
}

// record walks the types pkg, the package of group-version gv, declares.
func (t *typeRefs) record(gv string, pkg *types.Package) {
	var names []string
	seen := map[*types.TypeName]bool{}
	for _, name := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			names = append(names, typeKey(tn))
			t.visit(tn, seen)
		}
	}
	t.roots[gv] = names
}

func (t *typeRefs) visit(tn *types.TypeName, seen map[*types.TypeName]bool) {
	if seen[tn] {
		return
	}
	seen[tn] = true
	var out []*types.TypeName
	switch typ := tn.Type().(type) {
	case *types.Named:
		collect(typ.Origin().Underlying(), &out)
	case *types.Alias:
		collect(typ.Rhs(), &out)
	}
	keys := make([]string, len(out))
	for i, r := range out {
		keys[i] = typeKey(r)
		t.visit(r, seen)
	}
	t.refs[typeKey(tn)] = keys
}

// collect appends the named types t mentions, up to the first named type
// on each path.
func collect(t types.Type, out *[]*types.TypeName) {
	switch t := t.(type) {
	case *types.Named:
		*out = append(*out, t.Origin().Obj())
		for arg := range t.TypeArgs().Types() {
			collect(arg, out)
		}
	case *types.Alias:
		*out = append(*out, t.Obj())
	case *types.Pointer:
		collect(t.Elem(), out)
	case *types.Slice:
		collect(t.Elem(), out)
	case *types.Array:
		collect(t.Elem(), out)
	case *types.Chan:
		collect(t.Elem(), out)
	case *types.Map:
		collect(t.Key(), out)
		collect(t.Elem(), out)
	case *types.Struct:
		for f := range t.Fields() {
			collect(f.Type(), out)
		}
	case *types.Interface:
		for e := range t.EmbeddedTypes() {
			collect(e, out)
		}
	case *types.TypeParam:
		collect(t.Constraint(), out)
	case *types.Union:
		for i := range t.Len() {
			collect(t.Term(i).Type(), out)
		}
	}
}

// reaching returns the types that reach (or are) a changed one,
// changed(key) telling which are.
func (t *typeRefs) reaching(changed func(key string) bool) map[string]bool {
	importers := map[string][]string{}
	var queue []string
	for key, refs := range t.refs {
		for _, r := range refs {
			importers[r] = append(importers[r], key)
		}
		if changed(key) {
			queue = append(queue, key)
		}
	}
	out := map[string]bool{}
	for len(queue) > 0 {
		key := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if out[key] {
			continue
		}
		out[key] = true
		queue = append(queue, importers[key]...)
	}
	return out
}

// kindsReaching decides, for each group-version of scope, which root
// types of its package a cycle regenerates the CRDs of: those reaching a
// declaration the saves changed (pipeline.Options.Kinds). A group-version
// is left out of the map (all its CRDs regenerate) when one of its
// overrides changed, when a change may concern any type of its own
// package, or when no cycle recorded its types yet. The graph is the
// one of the declarations before the saves: a type reaches a changed
// declaration now exactly when it did then through declarations that did
// not change, which is all the selection needs (a path through a changed
// declaration already reaches one).
func (w *Watcher) kindsReaching(scope []string, e declEdits, overridden map[string]bool) map[string][]string {
	changedPkgs := map[string]bool{}
	changedTypes := map[string]bool{}
	for dir := range e.packages {
		path, ok := w.graph.pathOf[dir]
		if !ok {
			return nil
		}
		changedPkgs[path] = true
	}
	for dir, names := range e.types {
		path, ok := w.graph.pathOf[dir]
		if !ok {
			return nil
		}
		for n := range names {
			changedTypes[path+"."+n] = true
		}
	}
	reach := w.types.reaching(func(key string) bool {
		if changedTypes[key] {
			return true
		}
		i := strings.LastIndexByte(key, '.')
		return i > 0 && changedPkgs[key[:i]]
	})
	out := map[string][]string{}
	for _, gv := range scope {
		roots, ok := w.types.roots[gv]
		if overridden[gv] || changedPkgs[w.graph.versionPaths[gv]] || !ok {
			continue
		}
		kinds := []string{}
		for _, key := range roots {
			if reach[key] {
				kinds = append(kinds, key[strings.LastIndexByte(key, '.')+1:])
			}
		}
		slices.Sort(kinds)
		out[gv] = kinds
	}
	return out
}

// withoutUnreached drops from scope the group-versions none of whose
// root types reaches a changed declaration and whose own package did not
// change: their output cannot change, and the errors of the changed
// packages are found by the runs of their own group-versions. It keeps
// scope as it is when a changed package is the root of no group-version
// of scope (then only their importers' runs read it).
func (w *Watcher) withoutUnreached(scope []string, kinds map[string][]string, e declEdits) []string {
	roots := map[string]bool{}
	for _, gv := range scope {
		roots[w.graph.versionDirs[gv]] = true
	}
	for dir := range e.packages {
		if !roots[dir] {
			return scope
		}
	}
	for dir := range e.types {
		if !roots[dir] {
			return scope
		}
	}
	out := []string{}
	for _, gv := range scope {
		if k, ok := kinds[gv]; ok && len(k) == 0 && !e.has(w.graph.versionDirs[gv]) {
			continue
		}
		out = append(out, gv)
	}
	return out
}
