package watch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// TestCycleForgetsWhatDiscoveryKept: discovery keeps what it read of the
// package directories between cycles (discovery.Memo), and a cycle must
// read again the directory of a changed file even when the save kept
// the file's size and modification time (two saves within the file
// system's timestamp granularity). The edit makes the example's
// GroupVersion declare version v2 in directory v1, which a one-shot run
// reports as an error; undoing it recovers.
func TestCycleForgetsWhatDiscoveryKept(t *testing.T) {
	dir := exampleTree(t, true, false)
	w := started(t, dir)
	const rel = "example/v1/register.go"
	p := filepath.Join(dir, rel)
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	sameStamp := func(from, to string) {
		t.Helper()
		replace(t, dir, rel, from, to)
		if err := os.Chtimes(p, info.ModTime(), info.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	sameStamp(`Version: "v1"`, `Version: "v2"`)
	var out syncBuffer
	w.opts.Out = &out
	rep := w.Cycle(w.changedOf(setOf([]string{p})))
	if rep.Err == nil || !strings.Contains(out.String(), `declares version "v2"`) {
		t.Fatalf("cycle after the edit: %+v\n%s", rep, out.String())
	}
	sameStamp(`Version: "v2"`, `Version: "v1"`)
	if rep := w.Cycle(w.changedOf(setOf([]string{p}))); rep.Err != nil {
		t.Fatalf("cycle after undoing the edit: %v", rep.Err)
	}
}

// TestEventsForgetKeptListings: discovery keeps the listings of the
// watched directories (discovery.Memo.KeepListings), so every event must
// forget its directory, also one for a file that is no input of the
// generation and starts no cycle. Two Go files of different packages
// added to the example's test directory make a one-shot run fail; the
// next cycle, started by a doc-comment save in another directory, must
// fail the same way.
func TestEventsForgetKeptListings(t *testing.T) {
	dir := exampleTree(t, true, false)
	bg := runWatcher(t, dir, Options{})
	if r := bg.next("first cycle"); r.Err != nil {
		t.Fatalf("first cycle: %v\n%s", r.Err, bg.out.String())
	}
	writeFile(t, filepath.Join(dir, "example/v1/tests/a.go"), "package a\n")
	writeFile(t, filepath.Join(dir, "example/v1/tests/b.go"), "package b\n")
	if _, err := oneShot(t, dir); err == nil {
		t.Fatal("the one-shot run does not fail")
	}
	replace(t, dir, stableTypes, "on every cluster", "on every single cluster")
	r := bg.next("doc-comment save")
	if r.Err == nil || !strings.Contains(bg.out.String(), "example/v1/tests/b.go:1: package b: the directory already holds package a") {
		t.Fatalf("the cycle did not report the second package: %+v\n%s", r, bg.out.String())
	}
}

// TestCyclesReportMarkersInFunctionBodies: a package the watcher keeps
// from a cycle before has lost its function bodies, with the comments
// inside them, yet strict mode must still find the marker-like lines
// there as a one-shot run does. The example's second group-version holds
// such a line in a function and imports example/v1, so an edit of
// example/v1 checks it again from its kept syntax.
func TestCyclesReportMarkersInFunctionBodies(t *testing.T) {
	dir := withSharedCRD(t, exampleTree(t, true, false))
	const marker = "+kubebuilder:Requird"
	writeFile(t, filepath.Join(dir, "example/v1alpha1/probe.go"), "package v1alpha1\n\nfunc probe() int {\n\t// "+marker+"\n\treturn 1\n}\n")
	w := started(t, dir)
	var out syncBuffer
	w.opts.Out = &out
	changed := replace(t, dir, stableTypes, "keyed by name", "keyed by their name")
	rep := w.Cycle(w.changedOf(setOf(changed)))
	if rep.Err != nil || !slices.Contains(rep.Scope, "example.openshift.io/v1alpha1") {
		t.Fatalf("the cycle does not check example/v1alpha1 again: %+v", rep)
	}
	r := newRun(dir)()
	if _, err := r.Generate(); err != nil {
		t.Fatal(err)
	}
	found := slices.ContainsFunc(r.Problems.Items(), func(d diag.Diagnostic) bool { return d.Subject == marker })
	if !found || !strings.Contains(out.String(), marker) {
		t.Errorf("one-shot run finds the marker: %v; the cycle reported:\n%s", found, out.String())
	}
}
