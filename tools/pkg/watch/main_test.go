package watch

import (
	"os"
	"testing"
)

// TestMain runs the tests and benchmarks with the garbage collector
// setting of a codegen watch process (TuneGC): the benchmarks measure
// that process's cycles.
func TestMain(m *testing.M) {
	TuneGC(os.Getenv)
	os.Exit(m.Run())
}
