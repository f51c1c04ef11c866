package watch

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// RenameSettle is how long a save must have been quiet before its cycle
// starts when the save renamed a complete Go file into place. Such a save
// (gofmt and goimports on save, most editors' "safe write") is whole at
// the rename: waiting the full DefaultDebounce only delays its cycle.
const RenameSettle = 10 * time.Millisecond

// quiet tracks the debounce of the save being collected: how long its
// events must have stopped before its cycle starts.
type quiet struct {
	// slow is set once the save holds an event other than a Go file
	// appearing (a write in place, a removal, a YAML input): those may
	// be one of several writes, so the save waits the full debounce.
	slow bool
}

// after returns the quiet period to wait after ev, given the save's
// events so far, and records ev.
func (q *quiet) after(ev fsnotify.Event, debounce time.Duration) time.Duration {
	if ev.Op != fsnotify.Create || !isGoSource(filepath.Clean(ev.Name)) {
		q.slow = true
	}
	if q.slow {
		return debounce
	}
	return min(RenameSettle, debounce)
}

// reset starts the next save.
func (q *quiet) reset() { q.slow = false }

// complete says whether every pending Go file parses. A Go file created
// and then written in several writes may be caught half written after the
// short settle; it almost never parses then, so the save is given the rest
// of the full debounce instead of a cycle that reports a syntax error.
// What it parsed goes to parsed, for changedOf to take instead of parsing
// the file again.
func complete(pending map[string]bool, parsed map[string]parsedGo) bool {
	for p := range pending {
		if !isGoSource(p) {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			continue // gone: the cycle reports it
		}
		decls := declHashes(src)
		if decls == nil {
			return false
		}
		parsed[p] = parsedGo{sum: sha256.Sum256(src), decls: decls}
	}
	return true
}

// parsedGo is a Go file as complete parsed it: the hash of its content and
// its declarations' (declHashes).
type parsedGo struct {
	sum   [32]byte
	decls map[string][32]byte
}
