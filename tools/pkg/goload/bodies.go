package goload

import (
	"go/ast"
	"go/token"
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// DropFunctionBodies removes the function bodies from the syntax of every
// parsed package, with the comments written inside them. controller-tools
// parses a package whole to type-check its declarations (with
// IgnoreFuncBodies) and read the markers of its types; the bodies are never
// looked at again, yet they are most of a generated file (k8s.io/api/core/v1's
// generated.pb.go alone is 1.6 MB of them, a deepcopy file is nothing else)
// and would stay live for the whole run.
//
// The comments go with the bodies so that markers are associated exactly
// as before, by the collector and by markerpos: neither associates a
// marker inside a function, and without the body those comments would
// fall after the declaration and be taken for the next one's. What reads
// every comment of a root (strict mode) must have run before.
//
// It also prunes the type information of every checked package to what
// is read afterwards (see pruneTypesInfo).
//
// Call it when no stage is parsing packages (between stages): the loader
// parses lazily and does not lock the syntax it hands out. A package is
// trimmed once; one parsed after a call is trimmed by the next.
func (u *Universe) DropFunctionBodies() {
	if u.trimmed == nil {
		u.trimmed, u.pruned = map[*loader.Package]bool{}, map[*loader.Package]bool{}
	}
	u.eachPackage(func(p *loader.Package) {
		if p.Syntax != nil && !u.trimmed[p] {
			for _, f := range p.Syntax {
				dropBodies(f)
			}
			u.trimmed[p] = true
		}
		if p.TypesInfo != nil && !u.pruned[p] {
			pruneTypesInfo(p.TypesInfo)
			u.pruned[p] = true
		}
	})
}

// dropBodies removes the bodies of f's function declarations and the
// comment groups that start between the end of a signature and the end of
// its body.
func dropBodies(f *ast.File) {
	type span struct{ from, to token.Pos }
	var spans []span
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		spans = append(spans, span{fd.Type.End(), fd.Body.End()})
		fd.Body = nil
	}
	if len(spans) == 0 {
		return
	}
	// Decls and Comments are both in source order.
	kept := f.Comments[:0]
	i := 0
	for _, cg := range f.Comments {
		for i < len(spans) && cg.Pos() >= spans[i].to {
			i++
		}
		if i < len(spans) && cg.Pos() >= spans[i].from {
			continue
		}
		kept = append(kept, cg)
	}
	clear(f.Comments[len(kept):])
	f.Comments = kept
}

// pruneTypesInfo keeps of info what the stages and controller-tools read
// once a package is checked: Defs, Uses and the types of type expressions
// (Info.TypeOf of a field's or a declaration's type). The values of every
// other expression (each literal of a generated swagger-doc map, each
// initialiser) and the Implicits, Scopes and Selections go. The map is
// rebuilt, because a Go map does not shrink when entries are deleted.
func pruneTypesInfo(info *types.Info) {
	kept := map[ast.Expr]types.TypeAndValue{}
	for e, tv := range info.Types {
		if tv.IsType() {
			kept[e] = tv
		}
	}
	info.Types = kept
	info.Implicits, info.Scopes, info.Selections = nil, nil, nil
}
