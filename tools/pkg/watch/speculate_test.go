package watch

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// duringCycle starts a watcher of a fresh example tree, runs its first
// cycle and returns the tree and the reports of the next cycles. Once arm
// is called, the next cycle runs the function arm was given at the start
// of its generation, which changes files, and then waits until fsnotify
// has handed on at least one more notification: the cycle, started at
// once after a rename, finds it when it is about to write.
func duringCycle(t *testing.T) (dir string, reports <-chan Report, arm func(func())) {
	t.Helper()
	dir = exampleTree(t, true, false)
	if err := os.MkdirAll(filepath.Join(dir, ".edits"), 0o755); err != nil {
		t.Fatal(err)
	}
	var w *Watcher
	var during atomic.Pointer[func()]
	out := make(chan Report, 10)
	opts := Options{Debounce: 30 * time.Millisecond, OnCycle: func(r Report) { out <- r }}
	opts.NewRun = func() *pipeline.Run {
		if fn := during.Swap(nil); fn != nil {
			before := len(w.fsw.Events)
			(*fn)()
			for deadline := time.Now().Add(30 * time.Second); len(w.fsw.Events) == before && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
		}
		return newRun(dir)()
	}
	w, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	runInBackground(t, w)
	if r := nextReport(t, out, "first cycle"); r.Err != nil {
		t.Fatalf("first cycle: %+v", r)
	}
	return dir, out, func(fn func()) { during.Store(&fn) }
}

// saveByRename saves rel as replaceVia does, from a new file written in a
// directory the watcher does not watch: the rename is the save's one
// event.
func saveByRename(t testing.TB, dir, rel, from, to string) {
	t.Helper()
	replaceVia(t, filepath.Join(dir, rel), filepath.Join(dir, ".edits", filepath.Base(rel)), from, to)
}

func nextReport(t *testing.T, reports <-chan Report, what string) Report {
	t.Helper()
	select {
	case r := <-reports:
		return r
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no cycle", what)
		return Report{}
	}
}

// TestSupersededCycleWritesNothing: a save by rename starts its cycle at
// once; a second save, of another group-version's file, comes while it
// generates. The first cycle must write and report nothing (what it read
// may mix the two saves, or be half saved), and the next cycle, after
// RenameSettle, regenerates what both saves reach: its tree is a one-shot
// run's. A cycle writing from the first save's state, or one forgetting
// the dropped cycle's changes, fails it.
func TestSupersededCycleWritesNothing(t *testing.T) {
	dir, reports, arm := duringCycle(t)
	arm(func() {
		saveByRename(t, dir, stableTypes, "type StableConfigTypeStatus struct {\n\t// ", "type StableConfigTypeStatus struct {\n\t// Edited. ")
	})
	saveByRename(t, dir, alphaTypes, "// newField needs no gate marker", "// newField needs no gate marker at all")

	r := nextReport(t, reports, "the saves")
	if want := []string{stableTypes, alphaTypes}; r.Cycle != 2 || !slices.Equal(r.Changed, want) || r.Err != nil || r.Waited != RenameSettle {
		t.Errorf("the cycle after the superseded one: #%d, changed %v, waited %v, err %v; want #2, %v, %v", r.Cycle, r.Changed, r.Waited, r.Err, want, RenameSettle)
	}
	if !slices.Equal(r.Scope, []string{"example.openshift.io/v1", "example.openshift.io/v1alpha1"}) {
		t.Errorf("scope %v, want both group-versions", r.Scope)
	}
	want, err := oneShot(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "after the saves", want, testtree.Snapshot(t, dir))
	select {
	case r := <-reports:
		t.Errorf("one cycle more: %+v", r)
	case <-time.After(200 * time.Millisecond):
	}
}

// TestModeChangeSupersedesNothing: a change of mode alone during a cycle
// started at once changes no content; the cycle writes.
func TestModeChangeSupersedesNothing(t *testing.T) {
	dir, reports, arm := duringCycle(t)
	arm(func() {
		if err := os.Chmod(filepath.Join(dir, stableTypes), 0o600); err != nil {
			t.Error(err)
		}
	})
	saveByRename(t, dir, alphaTypes, "// newField needs no gate marker", "// newField needs no gate marker at all")
	r := nextReport(t, reports, "the save")
	if r.Cycle != 2 || !slices.Equal(r.Changed, []string{alphaTypes}) || r.Err != nil || r.Waited != 0 || r.Written == 0 {
		t.Errorf("the cycle: %+v; want #2 started at once, writing for %s", r, alphaTypes)
	}
}

// TestSupersededTakesTheQueuedNotifications checks superseded on
// notifications queued in the watcher's channel: an input's drops the
// cycle and makes the save wait RenameSettle, a change of mode or a file
// that is no input drops nothing, a lost notification drops the cycle and
// makes the next one full.
func TestSupersededTakesTheQueuedNotifications(t *testing.T) {
	dir := exampleTree(t, true, false)
	w := started(t, dir)
	stable, alpha := filepath.Join(dir, stableTypes), filepath.Join(dir, alphaTypes)
	for _, tc := range []struct {
		name    string
		events  []fsnotify.Event
		lost    bool
		want    bool
		pending []string
		wait    time.Duration
	}{
		{"no notification", nil, false, false, nil, 0},
		{"a Go file renamed into place", []fsnotify.Event{{Name: alpha, Op: fsnotify.Create}}, false, true, []string{alpha}, RenameSettle},
		{"a change of mode", []fsnotify.Event{{Name: stable, Op: fsnotify.Chmod}}, false, false, []string{stable}, 30 * time.Millisecond},
		{"a file that is no input", []fsnotify.Event{{Name: filepath.Join(dir, "example/v1/notes.txt"), Op: fsnotify.Create}}, false, false, nil, 0},
		{"a write in place", []fsnotify.Event{{Name: stable, Op: fsnotify.Write}}, false, true, []string{stable}, 30 * time.Millisecond},
		{"lost notifications", nil, true, true, []string{dir}, 30 * time.Millisecond},
	} {
		events, errs := make(chan fsnotify.Event, len(tc.events)), make(chan error, 1)
		for _, ev := range tc.events {
			events <- ev
		}
		if tc.lost {
			errs <- fsnotify.ErrEventOverflow
		}
		w.fsw.Events, w.fsw.Errors = events, errs
		w.opts.Debounce, w.full = 30*time.Millisecond, false
		w.save = save{pending: map[string]bool{}}
		if got := w.superseded(); got != tc.want {
			t.Errorf("%s: superseded = %v, want %v", tc.name, got, tc.want)
		}
		if got := slices.Sorted(maps.Keys(w.save.pending)); !slices.Equal(got, tc.pending) {
			t.Errorf("%s: pending %v, want %v", tc.name, got, tc.pending)
		}
		if w.save.q.retry != tc.want || (tc.pending != nil && w.save.waited != tc.wait) {
			t.Errorf("%s: retry %v, waits %v; want %v, %v", tc.name, w.save.q.retry, w.save.waited, tc.want, tc.wait)
		}
		if w.full != tc.lost || w.runErr != nil {
			t.Errorf("%s: full %v, error %v; want %v, none", tc.name, w.full, w.runErr, tc.lost)
		}
		if w.save.timer != nil {
			w.save.timer.Stop()
		}
	}
}

// TestBurstOfRenames: two files renamed into place one right after the
// other are both regenerated, whether the second came before the first's
// cycle started (one cycle), while it ran (one cycle, the first dropped)
// or, on a slow machine, after it wrote (two cycles).
func TestBurstOfRenames(t *testing.T) {
	dir, reports, _ := duringCycle(t)
	saveByRename(t, dir, alphaTypes, "// newField needs no gate marker", "// newField needs no gate marker at all")
	saveByRename(t, dir, stableTypes, "type StableConfigTypeStatus struct {\n\t// ", "type StableConfigTypeStatus struct {\n\t// Edited. ")
	changed := map[string]bool{}
	for cycle := 2; !changed[stableTypes]; cycle++ {
		r := nextReport(t, reports, "the saves")
		if r.Cycle != cycle || r.Err != nil {
			t.Fatalf("cycle #%d (%v), want #%d", r.Cycle, r.Err, cycle)
		}
		for _, p := range r.Changed {
			changed[p] = true
		}
	}
	if !changed[alphaTypes] {
		t.Errorf("no cycle regenerated %s", alphaTypes)
	}
	want, err := oneShot(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "after the saves", want, testtree.Snapshot(t, dir))
}
