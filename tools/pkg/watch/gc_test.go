package watch

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestTuneGC runs this test binary with GOGC and GOMEMLIMIT set or not
// and checks the collector setting after TuneGC(os.Getenv): the watch's
// own where the environment sets none, the user's where it does; and the
// percentage while a cycle holds the collector (holdGC): off when the
// watch set it and a memory limit bounds the process, else untouched.
func TestTuneGC(t *testing.T) {
	if os.Getenv("GATEDCRD_TUNEGC_CHILD") != "" {
		TuneGC(os.Getenv)
		release := holdGC()
		held := debug.SetGCPercent(-1)
		debug.SetGCPercent(held)
		release()
		percent := debug.SetGCPercent(0)
		fmt.Printf("GOGC=%d GOMEMLIMIT=%d held=%d\n", percent, debug.SetMemoryLimit(-1), held)
		return
	}
	cases := []struct {
		env  []string
		want string
	}{
		{nil, fmt.Sprintf("GOGC=%d GOMEMLIMIT=%d held=-1", GCPercent, MemoryLimit)},
		{[]string{"GOGC=50"}, fmt.Sprintf("GOGC=50 GOMEMLIMIT=%d held=50", MemoryLimit)},
		{[]string{"GOMEMLIMIT=300MiB"}, fmt.Sprintf("GOGC=%d GOMEMLIMIT=%d held=-1", GCPercent, 300<<20)},
		{[]string{"GOMEMLIMIT=off"}, fmt.Sprintf("GOGC=%d GOMEMLIMIT=%d held=%d", GCPercent, math.MaxInt64, GCPercent)},
		{[]string{"GOGC=off", "GOMEMLIMIT=2GiB"}, fmt.Sprintf("GOGC=-1 GOMEMLIMIT=%d held=-1", 2<<30)},
	}
	self, err := os.Executable() // os.Args[0] is "codegen" (TestMain)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		cmd := exec.Command(self, "-test.run=^TestTuneGC$")
		cmd.Env = append(withoutGCVars(os.Environ()), "GATEDCRD_TUNEGC_CHILD=1")
		cmd.Env = append(cmd.Env, c.env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.env, err, out)
		}
		if got := strings.SplitN(string(out), "\n", 2)[0]; got != c.want {
			t.Errorf("environment %q: %s, want %s", c.env, got, c.want)
		}
	}
}

// withoutGCVars is env without GOGC and GOMEMLIMIT.
func withoutGCVars(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			out = append(out, kv)
		}
	}
	return out
}

// TestFullCyclesAreCollected: a full cycle starts a collection once it
// reported (collectAfterFullRun), a restricted one does not (its garbage
// is collected as the goal set by the last collection says).
func TestFullCyclesAreCollected(t *testing.T) {
	collections := 0
	defer func(old func()) { collectAfterFullRun = old }(collectAfterFullRun)
	collectAfterFullRun = func() { collections++ }
	dir := exampleTree(t, true, false)
	w, err := New(dir, Options{NewRun: newRun(dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.seed()
	if rep := w.Cycle(nil); rep.Err != nil || collections != 1 {
		t.Fatalf("full cycle: %d collection(s) started, error %v", collections, rep.Err)
	}
	file := filepath.Join(dir, stableTypes)
	testtree.ToggleDoc(t, file)
	rep := w.Cycle(w.changedOf(setOf([]string{file})))
	if rep.Err != nil || len(rep.Kinds) == 0 {
		t.Fatalf("restricted cycle: %+v", rep)
	}
	if collections != 1 {
		t.Errorf("a restricted cycle started a collection (%d in all)", collections)
	}
}
