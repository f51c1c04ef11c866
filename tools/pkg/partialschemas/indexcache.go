package partialschemas

import (
	"go/ast"
	"slices"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// IndexCache keeps the package indexes of a stage 1 run for the next run
// over the same tree with the same cache (codegen watch, whose package
// session keeps the loaded packages from cycle to cycle): building them is
// a good part of the stage (collecting the markers of k8s.io/api/core/v1
// alone takes milliseconds), and most packages do not change between
// cycles.
//
// An index is made from the package's syntax alone, so it is reused for
// the same package (the same *loader.Package) while that has the very
// syntax trees it was made from (the same *ast.File values, their function
// bodies dropped or not, goload.Universe.DropFunctionBodies): a package
// whose files changed is parsed again into new trees, and a fresh load
// makes new packages. Indexes of packages whose markers do not parse are
// not kept. After a run the cache holds the indexes that run used.
//
// An IndexCache is safe for concurrent use.
type IndexCache struct {
	mu sync.Mutex
	m  map[*loader.Package]*cachedIndex
	// Reused counts the indexes served from the cache, Built those a
	// run made itself.
	Reused, Built int
}

// cachedIndex is an index and the syntax it was made from.
type cachedIndex struct {
	syntax []*ast.File
	bodies bool
	idx    *pkgIndex
}

// NewIndexCache returns an empty cache.
func NewIndexCache() *IndexCache { return &IndexCache{m: map[*loader.Package]*cachedIndex{}} }

// get returns the index kept for pkg if it was made from pkg's present
// syntax, else nil. A nil cache keeps nothing.
func (c *IndexCache) get(pkg *loader.Package) *pkgIndex {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[pkg]
	if e == nil || !slices.Equal(e.syntax, pkg.Syntax) || e.bodies != hasBodies(pkg.Syntax) {
		c.Built++
		return nil
	}
	c.Reused++
	return e.idx
}

// keep replaces what the cache holds by the indexes a run used, but for
// those that failed.
func (c *IndexCache) keep(used map[*loader.Package]*indexOnce) {
	if c == nil {
		return
	}
	m := map[*loader.Package]*cachedIndex{}
	for pkg, e := range used {
		if e.idx != nil && !e.idx.failed {
			m[pkg] = &cachedIndex{syntax: slices.Clone(e.idx.syntax), bodies: e.idx.bodies, idx: e.idx}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = m
}

// hasBodies says whether a function of files still has its body.
func hasBodies(files []*ast.File) bool {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				return true
			}
		}
	}
	return false
}
