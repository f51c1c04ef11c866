package watch

import "runtime/debug"

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
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
