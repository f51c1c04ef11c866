package watch

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestObservedFilesAndWrittenFiles: a saved file that Options.Observe
// accepts makes a cycle that names it and regenerates nothing; a type
// edit's cycle lists the CRD files it wrote (what codegen watch --suites
// runs the suites of).
func TestObservedFilesAndWrittenFiles(t *testing.T) {
	dir := exampleTree(t, true, false)
	const suiteFile = "example/v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml"
	bg := runWatcher(t, dir, Options{Observe: func(p string) bool {
		return filepath.Ext(p) == ".yaml" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "tests"
	}})
	defer func() {
		if err := bg.stop(); err != nil {
			t.Error(err)
		}
	}()
	next, out := bg.next, &bg.out
	if r := next("first cycle"); r.Err != nil {
		t.Fatalf("first cycle: %v\n%s", r.Err, out.String())
	}

	replace(t, dir, suiteFile, "name:", "name:  ")
	r := next("suite edit")
	if !slices.Equal(r.Changed, []string{suiteFile}) || r.Scope == nil || len(r.Scope) != 0 || r.Written != 0 || len(r.Files) != 0 {
		t.Errorf("suite edit: %+v; want it named, nothing selected, nothing written", r)
	}

	replace(t, dir, stableTypes, "// stableField exists on every cluster.", "// stableField exists on every cluster, always.")
	r = next("doc comment edit")
	if r.Err != nil || r.Written == 0 || len(r.Files) != r.Written {
		t.Fatalf("doc comment edit: %+v; want the files written listed\n%s", r, out.String())
	}
	for _, f := range r.Files {
		if !strings.HasPrefix(f, "example/v1/zz_generated.") {
			t.Errorf("written file %s is not an output of example/v1", f)
		}
	}
	if !slices.IsSorted(r.Files) || !slices.ContainsFunc(r.Files, func(f string) bool { return strings.HasPrefix(f, "example/v1/zz_generated.crd-manifests/") }) {
		t.Errorf("written files %v: want them sorted, a CRD file of example/v1 among them", r.Files)
	}
}

// background is a watcher running its loop (Run) in the background.
type background struct {
	t       *testing.T
	out     syncBuffer
	reports chan Report
	cancel  context.CancelFunc
	done    chan error
}

// runWatcher starts a watcher of dir with opts, reporting its cycles to
// bg.reports and printing to bg.out, with a short debounce.
func runWatcher(t *testing.T, dir string, opts Options) *background {
	t.Helper()
	bg := &background{t: t, reports: make(chan Report, 10), done: make(chan error, 1)}
	opts.NewRun, opts.Out, opts.Debounce = newRun(dir), &bg.out, 30*time.Millisecond
	opts.OnCycle = func(r Report) { bg.reports <- r }
	w, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	bg.cancel = cancel
	go func() { bg.done <- w.Run(ctx) }()
	return bg
}

// next waits for the report of the next cycle.
func (bg *background) next(what string) Report {
	bg.t.Helper()
	select {
	case r := <-bg.reports:
		return r
	case <-time.After(60 * time.Second):
		bg.t.Fatalf("%s: no cycle\n%s", what, bg.out.String())
		return Report{}
	}
}

// stop ends the loop and returns its error.
func (bg *background) stop() error {
	bg.cancel()
	return <-bg.done
}
