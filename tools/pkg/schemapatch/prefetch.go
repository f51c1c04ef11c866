package schemapatch

import (
	"slices"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// prefetchMarkers starts collecting, on a goroutine of its own, the
// markers of the packages whose types the last run with the same
// IndexCache built schemas of, and that still have the syntax it indexed,
// in the order that run indexed them; it returns the function that waits
// for the collection to end and the number of packages it collects.
//
// Upstream's NeedSchemaFor reads the package-level markers of the package
// of each type it builds a schema of (markers.PackageMarkers), for which
// the run's Collector, made afresh for every run, collects the markers of
// the whole package: with the package indexes kept from run to run, that
// is the one thing left of reading an unchanged package (collecting
// k8s.io/api/core/v1 takes milliseconds), and it happened on the
// generation's goroutine, one package after the other, while the other
// core had little to do. The Collector is safe for concurrent use and
// keeps what it collected; a package is collected once (markersOf), by
// this goroutine or by the generation's when that needs the package
// first, before NeedSchemaFor reads its markers. The output does not
// depend on who did. The packages' syntax is only read, by both.
func (s *stage) prefetchMarkers(u *universe) (wait func(), n int) {
	type source struct {
		pkg *loader.Package
		seq int
	}
	var sources []source
	s.in.Indexes.Current(func(pkg *loader.Package, ix *packageIndex) {
		if ix.schemaSource {
			sources = append(sources, source{pkg, ix.seq})
		}
	})
	if len(sources) == 0 {
		return func() {}, 0
	}
	slices.SortFunc(sources, func(a, b source) int { return a.seq - b.seq })
	u.collected = make(map[*loader.Package]*sync.Once, len(sources))
	for _, src := range sources {
		u.collected[src.pkg] = &sync.Once{}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer region("schemapatch.prefetch-markers").End()
		for _, src := range sources {
			u.markersOf(src.pkg)
		}
	}()
	return func() { <-done }, len(sources)
}

// markersOf collects the markers of pkg into the run's Collector once,
// when prefetchMarkers collects them, and returns when they are
// collected. An error is not kept by the Collector: NeedSchemaFor meets
// it again and records it on the package.
func (u *universe) markersOf(pkg *loader.Package) {
	if once := u.collected[pkg]; once != nil {
		once.Do(func() { _, _ = u.goload.Collector.MarkersInPackage(pkg) })
	}
}

// noteSchemaSources marks the packages of the types parser built schemas
// of (not the fixed schemas of known types) as schema sources, for the
// next run's prefetchMarkers.
func (u *universe) noteSchemaSources(parser *crd.Parser) {
	if u.cache == nil || parser == nil {
		return
	}
	for id := range parser.Schemata {
		if ix := u.indexes[id.Package]; ix != nil && !ix.schemaSource {
			if _, fixed := ix.schemata[id]; !fixed {
				ix.schemaSource = true
			}
		}
	}
}
