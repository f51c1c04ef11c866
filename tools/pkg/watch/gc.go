package watch

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// The garbage collector setting of a watch process (TuneGC). A cycle
// allocates several times the live heap it keeps (the kept Go packages
// and manifests, the watcher's graphs: 50-130 MB on openshift/api):
// parsing and emitting YAML, building schemas. With Go's default GOGC of
// 100 the collector took about a fifth of a cycle's CPU time on
// openshift/api; collecting at five times the live heap rather than twice
// costs a few hundred MiB of resident memory more (docs/watch.md) and
// saves most of it. The soft limit makes the collector work harder
// before the process would grow past it, as on a tree whose live heap is
// much larger.
const (
	GCPercent   = 400
	MemoryLimit = 1 << 30
)

// TuneGC gives the process the collector setting of a watch for each of
// GOGC and GOMEMLIMIT that getenv (os.Getenv) does not set: the runtime
// applied those the user set when the process started, and they stay.
// codegen watch calls it before its first cycle.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
		ownsGCPercent.Store(true)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// ownsGCPercent says TuneGC set the collector percentage, the user did
// not: only then may a cycle hold the collector off (holdGC).
var ownsGCPercent atomic.Bool

// holdGC turns the percentage-driven collector off until the function it
// returns is called, which restores GCPercent. A restricted cycle (one
// regenerating only what a change reaches) holds it until its report: the
// garbage it makes is then collected after the report, in the idle time before the next save, instead of on the
// way to the files on disk (on openshift/api the collector's own work was
// about a tenth of a doc-comment cycle's CPU, with allocation assists on
// top). The memory limit still applies while the percentage is off, so it
// only holds when there is one (TuneGC's, or the user's GOMEMLIMIT): a
// cycle that allocates past it is collected as it goes. It holds nothing
// when the user chose GOGC.
func holdGC() (release func()) {
	if !ownsGCPercent.Load() || debug.SetMemoryLimit(-1) == math.MaxInt64 {
		return func() {}
	}
	debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(GCPercent) }
}

// collectAfterFullRun starts a collection on a goroutine of its own; the
// watcher calls it once a full cycle is reported. A full run of
// openshift/api grows the heap to ~300 MB and leaves ~35 MB of it live,
// but the collector's goal, set by the last collection (during the run,
// with ~110 MB live), is five times that: the restricted cycles after it
// allocated their ~130 MB each in memory the process had never touched,
// until the heap reached the goal, and faulting those pages in made the
// first three saves after the start 260-350 ms instead of 80-100 (the
// shared-type edit). Collected at once, the heap's freed spans serve
// those cycles, and the goal follows the live heap of a watch between
// edits.
//
// A variable, so that a test can count the calls.
var collectAfterFullRun = func() { go runtime.GC() }
