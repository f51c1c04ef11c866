package watch

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// RenameSettle is how long a save must have been quiet before its cycle
// starts when the save renamed a complete Go file into place and a cycle
// started for it at once was dropped (superseded): the save may be one of
// a burst, and the next try waits for the burst to end. A first try does
// not wait: such a save (gofmt and goimports on save, most editors' "safe
// write") is whole at the rename.
const RenameSettle = 10 * time.Millisecond

// quiet tracks the debounce of the save being collected: how long its
// events must have stopped before its cycle starts.
type quiet struct {
	// slow is set once the save holds an event other than a Go file
	// appearing (a write in place, a removal, a YAML input): those may
	// be one of several writes, so the save waits the full debounce.
	slow bool
	// retry is set once a cycle started at once for the save was
	// dropped because of a later event: the save then waits RenameSettle.
	retry bool
}

// after returns the quiet period to wait after ev, given the save's
// events so far, and records ev. Zero means at once: the cycle starts
// speculatively, and is dropped if another event for an input comes
// before it writes (Watcher.superseded).
func (q *quiet) after(ev fsnotify.Event, debounce time.Duration) time.Duration {
	if ev.Op != fsnotify.Create || !isGoSource(filepath.Clean(ev.Name)) {
		q.slow = true
	}
	switch {
	case q.slow:
		return debounce
	case q.retry:
		return min(RenameSettle, debounce)
	}
	return 0
}

// reset starts the next save.
func (q *quiet) reset() { q.slow, q.retry = false, false }

// save collects the events of the save under way, for Run: the inputs
// they name and the debounce timer of the cycle they start.
type save struct {
	pending map[string]bool
	q       quiet
	// waited is the quiet period the timer was last armed for.
	waited time.Duration
	timer  *time.Timer
	fire   <-chan time.Time
}

// arm (re)starts the debounce timer for d.
func (s *save) arm(d time.Duration) {
	if s.timer == nil {
		s.timer = time.NewTimer(d)
	} else {
		s.timer.Stop()
		s.timer.Reset(d)
	}
	s.fire = s.timer.C
}

// take handles one notification and adds it to the save when it may
// concern an input, which it reports.
func (w *Watcher) take(ev fsnotify.Event) bool {
	if !w.event(ev) {
		return false
	}
	s := &w.save
	s.pending[filepath.Clean(ev.Name)] = true
	s.waited = s.q.after(ev, w.opts.Debounce)
	s.arm(s.waited)
	return true
}

// lost handles a notification error: an overflowed queue lost events, and
// only a full cycle, after the full debounce, is safe then. Any other
// error is returned.
func (w *Watcher) lost(err error) error {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		return fmt.Errorf("watch: %w", err)
	}
	s := &w.save
	w.full = true
	s.pending[w.base] = true
	s.q.slow = true
	s.waited = w.opts.Debounce
	s.arm(s.waited)
	return nil
}

// errSuperseded ends the generation of a cycle started at once that a
// later event superseded: it writes nothing, and reports nothing.
var errSuperseded = errors.New("superseded by a later event")

// superseded takes the notifications that came since the cycle under way
// started, without waiting for more, and says whether one may concern an
// input: what the cycle read may then be stale, or half saved, and its
// work is dropped. A change of mode alone changes no content. The save
// they start waits RenameSettle at least (quiet.retry), so that a burst
// of saves drops one cycle, not one per save.
func (w *Watcher) superseded() bool {
	s := &w.save
	retry := s.q.retry
	s.q.retry = true
	stale := false
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return true // closing: Run returns
			}
			if w.take(ev) && ev.Op != fsnotify.Chmod {
				stale = true
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return true
			}
			w.runErr = cmp.Or(w.runErr, w.lost(err))
			stale = true
		default:
			if !stale {
				s.q.retry = retry
			}
			return stale
		}
	}
}

// complete says whether every pending Go file parses. A Go file created
// and then written in several writes may be caught half written after the
// short settle; it almost never parses then, so the save is given the rest
// of the full debounce instead of a cycle that reports a syntax error.
// What it parsed goes to parsed, for changedOf to take instead of parsing
// the file again.
func complete(pending map[string]bool, parsed map[string]parsedGo) bool {
	for p := range pending {
		if isGoSource(p) && !parseSaved(p, parsed) {
			return false
		}
	}
	return true
}

// parseSaved parses the Go file p into parsed, unless parsed holds its
// content already, and says whether it parses; a file that is gone counts
// as parsed (the cycle reports it).
func parseSaved(p string, parsed map[string]parsedGo) bool {
	src, err := os.ReadFile(p)
	if err != nil {
		return true
	}
	sum := sha256.Sum256(src)
	if c, ok := parsed[p]; ok && c.sum == sum {
		return true
	}
	decls := declHashes(src)
	if decls == nil {
		return false
	}
	parsed[p] = parsedGo{sum: sum, decls: decls}
	return true
}

// collect takes a notification for Run (take) and, when the save waits
// for quiet, parses the Go file it names meanwhile: the cycle, if the file
// stays as it is, finds it parsed (changedOf) instead of parsing it after
// the wait. A cycle that starts at once parses it then (complete).
func (w *Watcher) collect(ev fsnotify.Event) {
	if w.take(ev) && w.save.waited > 0 {
		if p := filepath.Clean(ev.Name); isGoSource(p) {
			parseSaved(p, w.parsed)
		}
	}
}

// parsedGo is a Go file as complete parsed it: the hash of its content and
// its declarations' (declHashes).
type parsedGo struct {
	sum   [32]byte
	decls map[string][32]byte
}
