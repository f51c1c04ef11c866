package watch

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sort"
)

// changedOf returns the pending paths whose content differs from what the
// watcher last saw, sorted, and records their new content.
func (w *Watcher) changedOf(pending map[string]bool) []string {
	var out []string
	for p := range pending {
		if p == w.base {
			continue // a forced full cycle
		}
		data, err := os.ReadFile(p)
		h := sha256.Sum256(data)
		if old, seen := w.seen[p]; seen && old == h {
			continue
		}
		if err == nil {
			w.seen[p] = h
		} else {
			w.seen[p] = [32]byte{}
			data = nil
		}
		if isGoSource(p) {
			w.noteDecls(p, data, h)
			w.noteCode(p, data)
		}
		out = append(out, p)
	}
	clear(w.parsed)
	sort.Strings(out)
	return out
}

// noteDecls records which declarations of the Go file p a save changed,
// data being its new content (nil: gone) and sum its hash. The save's
// settle may have parsed that content already (complete).
func (w *Watcher) noteDecls(p string, data []byte, sum [32]byte) {
	var after map[string][32]byte
	if data != nil && !isOutputSource(p) {
		if c, ok := w.parsed[p]; ok && c.sum == sum {
			after = c.decls
		} else {
			after = declHashes(data)
		}
	}
	if after != nil {
		// It parses: discovery needs not parse it again to know.
		w.keep.Directories().NoteParses(p, sum)
	}
	names, all := changedTypes(w.decls[p], after)
	w.edited.add(filepath.Dir(p), names, all)
	if after == nil {
		delete(w.decls, p)
	} else {
		w.decls[p] = after
	}
}

// seed records the content of every input in the watched directories,
// so that a first event that changes no byte (a touch, a save without
// edits) starts no cycle. Every Go file counts: before the first cycle
// no package is known, and one that does not mention GroupVersion is an
// input only once the cycle has read its package.
func (w *Watcher) seed() {
	for dir := range w.watched {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				continue
			}
			if isGoSource(p) {
				w.seedGoFile(p)
				continue
			}
			if _, ok := w.seen[p]; ok || w.relevant(p) == notInput {
				continue
			}
			if h, ok := hashFile(p); ok {
				w.seen[p] = h
			}
		}
	}
}

// seedGoFile records the content of the Go file p and, but for generated
// files, its declarations.
func (w *Watcher) seedGoFile(p string) {
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	if !isOutputSource(p) && w.decls[p] == nil {
		w.decls[p] = declHashes(data)
	}
	w.seedCode(p, data)
	if _, ok := w.seen[p]; !ok {
		w.seen[p] = sha256.Sum256(data)
	}
}

func hashFile(p string) ([32]byte, bool) {
	data, err := os.ReadFile(p)
	if err != nil {
		return [32]byte{}, false
	}
	return sha256.Sum256(data), true
}
