package watch

import "path/filepath"

// The cycles share one manifest.Memo (pipeline.Options.Memo): most YAML a
// cycle parses was parsed by the cycle before it, or written by it. A
// file a cycle writes is parsed once its report is out, while the author
// reads it (Prewarm), so that the next cycle, which reads it back, finds
// it parsed; a next cycle that comes sooner waits for the parse under way
// rather than parsing the file a second time. After a good cycle the
// memo drops what the cycle did not use; a failed cycle drops nothing,
// so the cycle that follows a syntax error still finds what the good
// ones parsed.

// noteWritten records a file the cycle wrote, for parsing once it
// reported, when it is YAML.
func (w *Watcher) noteWritten(path string, data []byte) {
	if filepath.Ext(path) == ".yaml" {
		w.written = append(w.written, data)
	}
}

// afterCycle evicts what a good cycle (ok) did not use from the memo, and
// starts parsing the YAML files the cycle wrote.
func (w *Watcher) afterCycle(ok bool) {
	if ok {
		w.memo.Advance()
	}
	w.memo.Prewarm(w.written)
	w.written = nil
}
