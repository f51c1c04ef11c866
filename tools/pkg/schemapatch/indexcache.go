package schemapatch

import (
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

// IndexCache keeps the package indexes of a stage 2 run (controller-tools'
// indexing of a package: its group-version, the TypeInfo of each type with
// its collected markers, the fixed schemas of known types) for the next
// run with it, which reuses those of the packages whose syntax it still
// has (see goload.SyntaxCache): codegen watch. A run indexes every package
// its schemas reach, one after the other before the schemas that need
// them, while the other core has nothing to convert yet; on openshift/api
// a doc-comment cycle indexed k8s.io/api/core/v1 and the other unchanged
// packages again. An indexing that recorded errors on its package is not
// kept, so that the next run reports them again. What a run builds on the
// TypeInfos (views, schemas) is its own.
type IndexCache = goload.SyntaxCache[*packageIndex]

// NewIndexCache returns an empty cache.
func NewIndexCache() *IndexCache { return &IndexCache{} }

// keepIndexes hands the indexes of the packages the run indexed to the
// cache, but for those whose indexing recorded errors.
func (u *universe) keepIndexes() {
	if u.cache == nil {
		return
	}
	made := make(map[*loader.Package]goload.Made[*packageIndex], len(u.indexes))
	for pkg, ix := range u.indexes {
		if !ix.failed {
			ix.packageIndex.seq, ix.packageIndex.schemaSource = ix.seq, ix.schemaSource
			made[pkg] = goload.Made[*packageIndex]{Syntax: ix.syntax, Value: ix.packageIndex}
		}
	}
	u.cache.Keep(made)
}
