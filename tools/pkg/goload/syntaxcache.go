package goload

import (
	"go/ast"
	"slices"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// SyntaxCache keeps what a run made from the syntax of packages (an index
// of their types and markers) for the next run over the same tree with the
// same cache: codegen watch, whose Session keeps the packages that did not
// change from cycle to cycle, and most do not.
//
// A value is made from the package's syntax alone, so it is reused for the
// same package (the same *loader.Package) while that has the very syntax
// trees it was made from (the same *ast.File values, their function bodies
// dropped or not, Universe.DropFunctionBodies, which drops the comments
// inside them too): a package whose files changed is parsed again into
// new trees, and a fresh load makes new packages. After a run the cache
// holds what that run kept.
//
// A SyntaxCache is safe for concurrent use.
type SyntaxCache[V any] struct {
	mu sync.Mutex
	m  map[*loader.Package]Made[V]
	// Reused counts the values served from the cache, Built those runs
	// had to make themselves (Get found none).
	Reused, Built int
}

// Made is a value and the syntax of the package it was made from.
type Made[V any] struct {
	Syntax Syntax
	Value  V
}

// Syntax is the syntax of a package at one time: its files and whether
// its functions had their bodies.
type Syntax struct {
	files  []*ast.File
	bodies bool
}

// SyntaxOf returns pkg's present syntax.
func SyntaxOf(pkg *loader.Package) Syntax {
	return Syntax{files: slices.Clone(pkg.Syntax), bodies: hasFunctionBodies(pkg.Syntax)}
}

// of says whether s is pkg's present syntax.
func (s Syntax) of(pkg *loader.Package) bool {
	return slices.Equal(s.files, pkg.Syntax) && s.bodies == hasFunctionBodies(pkg.Syntax)
}

// Len is the number of values held.
func (c *SyntaxCache[V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Get returns the value kept for pkg if it was made from pkg's present
// syntax. A nil cache keeps nothing.
func (c *SyntaxCache[V]) Get(pkg *loader.Package) (V, bool) {
	var zero V
	if c == nil {
		return zero, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[pkg]
	if !ok || !e.Syntax.of(pkg) {
		c.Built++
		return zero, false
	}
	c.Reused++
	return e.Value, true
}

// Current calls fn with every value kept for a package that still has
// the syntax it was made from, in no particular order (without counting
// them as reused).
func (c *SyntaxCache[V]) Current(fn func(pkg *loader.Package, v V)) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for pkg, e := range c.m {
		if e.Syntax.of(pkg) {
			fn(pkg, e.Value)
		}
	}
}

// Keep replaces what the cache holds by made, the values of a run by
// package. A nil cache keeps nothing.
func (c *SyntaxCache[V]) Keep(made map[*loader.Package]Made[V]) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = made
}

// hasFunctionBodies says whether a function declared in files still has
// its body.
func hasFunctionBodies(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				return true
			}
		}
	}
	return false
}
