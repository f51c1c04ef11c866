package watch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
