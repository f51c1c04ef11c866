package partialschemas

import (
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

// IndexCache keeps the package indexes of a stage 1 run for the next run
// with it, which reuses those of the packages whose syntax it still has
// (see goload.SyntaxCache): codegen watch. Building them is a good part of
// the stage (collecting the markers of k8s.io/api/core/v1 alone takes
// milliseconds), and most packages do not change between cycles. Indexes
// of packages whose markers do not parse are not kept. After a run the
// cache holds the indexes that run used.
type IndexCache = goload.SyntaxCache[*pkgIndex]

// NewIndexCache returns an empty cache.
func NewIndexCache() *IndexCache { return &IndexCache{} }

// keepIndexes replaces what c holds by the indexes a run used, but for
// those that failed.
func keepIndexes(c *IndexCache, used map[*loader.Package]*indexOnce) {
	m := map[*loader.Package]goload.Made[*pkgIndex]{}
	for pkg, e := range used {
		if e.idx != nil && !e.idx.failed {
			m[pkg] = goload.Made[*pkgIndex]{Syntax: e.idx.syntax, Value: e.idx}
		}
	}
	c.Keep(m)
}
