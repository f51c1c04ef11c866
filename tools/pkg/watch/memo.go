package watch

import (
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// The cycles share one manifest.Memo (pipeline.Keep.Manifests): most
// YAML a cycle parses was parsed by the cycle before it, or written by
// it. A file a cycle writes is parsed once its report is out, while the author
// reads it (Prewarm), so that the next cycle, which reads it back, finds
// it parsed; a next cycle that comes sooner waits for the parse under way
// rather than parsing the file a second time. The contents a cycle
// replaced or removed are dropped right away: no file holds them any
// more. After a good cycle the memo also drops what the cycle did not
// use; a failed cycle drops nothing else, so the cycle that follows a
// syntax error still finds what the good ones parsed.

// noteWritten records the contents of a YAML file the cycle changed, for
// afterCycle.
func (w *Watcher) noteWritten(c tree.Change) {
	if filepath.Ext(c.Path) != ".yaml" {
		return
	}
	if c.Old != nil {
		w.replaced = append(w.replaced, c.Old)
	}
	if c.New != nil {
		w.written = append(w.written, c.New)
	}
}

// afterCycle drops from the memo what the cycle replaced and what a good
// cycle (ok) did not use, and starts parsing the YAML files the cycle
// wrote.
func (w *Watcher) afterCycle(ok bool) {
	w.keep.Manifests().Forget(w.replaced)
	if ok {
		w.keep.Advance()
	}
	w.keep.Manifests().Prewarm(w.written)
	w.written, w.replaced = nil, nil
}
