package goload

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sync"

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
// every comment of a file (strict mode) reads them through Comments,
// which still has them: a package a Session keeps for the next run has
// lost its bodies in the run before.
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
				u.dropped.add(f, dropBodies(f))
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
// its body, and returns those.
func dropBodies(f *ast.File) []*ast.CommentGroup {
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
		return nil
	}
	// Decls and Comments are both in source order.
	var dropped []*ast.CommentGroup
	kept := f.Comments[:0]
	i := 0
	for _, cg := range f.Comments {
		for i < len(spans) && cg.Pos() >= spans[i].to {
			i++
		}
		if i < len(spans) && cg.Pos() >= spans[i].from {
			dropped = append(dropped, cg)
			continue
		}
		kept = append(kept, cg)
	}
	clear(f.Comments[len(kept):])
	f.Comments = kept
	return dropped
}

// Comments returns every comment group of f, a file of u, in source
// order: f.Comments with those DropFunctionBodies removed from it.
func (u *Universe) Comments(f *ast.File) []*ast.CommentGroup {
	dropped := u.dropped.of(f)
	if len(dropped) == 0 {
		return f.Comments
	}
	all := append(slices.Clone(f.Comments), dropped...)
	slices.SortFunc(all, func(a, b *ast.CommentGroup) int { return cmp.Compare(a.Pos(), b.Pos()) })
	return all
}

// droppedComments are the comment groups DropFunctionBodies removed from
// each file, kept as long as the file's syntax is: the universes a
// Session serves share them.
type droppedComments struct {
	mu sync.Mutex
	m  map[*ast.File][]*ast.CommentGroup
}

func newDroppedComments() *droppedComments {
	return &droppedComments{m: map[*ast.File][]*ast.CommentGroup{}}
}

func (d *droppedComments) add(f *ast.File, groups []*ast.CommentGroup) {
	if len(groups) == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.m[f] = append(d.m[f], groups...)
}

func (d *droppedComments) of(f *ast.File) []*ast.CommentGroup {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[f]
}

// forget drops what is kept for files whose syntax goes.
func (d *droppedComments) forget(files []*ast.File) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, f := range files {
		delete(d.m, f)
	}
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
