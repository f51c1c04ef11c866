package watch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// BenchmarkSaveToDisk measures codegen watch's save-to-files-on-disk
// latency for a doc-comment edit: from the rename that saves the Go file
// to the end of the cycle's write, through file notification, the
// debounce (DefaultDebounce) and the cycle. Each iteration toggles the
// description of the first field of the first struct of the file, so
// every cycle writes files. It reports the median and the 90th
// percentile. The example tree always runs; the real tree of make
// conformance runs when GATEDCRD_BENCH_MODULE names it (make bench sets
// it), fetched and prepared by hack/real-tree.sh, editing
// config/v1/types_infrastructure.go. "full" regenerates every
// group-version on each cycle (codegen watch --full), "restricted" only
// those reading the changed package.
func BenchmarkSaveToDisk(b *testing.B) {
	trees := []struct{ name, file string }{{"example", stableTypes}}
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		trees = append(trees, struct{ name, file string }{"openshift-api", "config/v1/types_infrastructure.go"})
	}
	for _, tr := range trees {
		for _, full := range []bool{false, true} {
			mode := "restricted"
			if full {
				mode = "full"
			}
			b.Run(tr.name+"/"+mode, func(b *testing.B) {
				var dir string
				if tr.name == "example" {
					dir = exampleTree(b, true, false)
				} else {
					dir = testtree.RealTree(b, "../../../hack/real-tree.sh", os.Getenv("GATEDCRD_BENCH_MODULE"))
				}
				benchSaves(b, dir, tr.file, full)
			})
		}
	}
}

func benchSaves(b *testing.B, dir, file string, full bool) {
	reports := make(chan Report, 4)
	w, err := New(dir, Options{NewRun: newRun(dir), Full: full, Out: benchOut(), OnCycle: func(r Report) { reports <- r }})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	defer func() { cancel(); <-done }()
	if r := <-reports; r.Err != nil {
		b.Fatalf("first cycle: %v", r.Err)
	}
	var lat []time.Duration
	var scope []string
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		testtree.ToggleDoc(b, filepath.Join(dir, file))
		select {
		case r := <-reports:
			if r.Err != nil || r.Written == 0 {
				b.Fatalf("cycle: %+v", r)
			}
			scope = r.Scope
		case <-time.After(2 * time.Minute):
			b.Fatal("no cycle")
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*9)/10].Milliseconds()), "p90-ms")
	b.ReportMetric(float64(len(scope)), "group-versions")
}

// benchOut shows the cycle lines with GATEDCRD_BENCH_VERBOSE set.
func benchOut() io.Writer {
	if os.Getenv("GATEDCRD_BENCH_VERBOSE") != "" {
		return os.Stderr
	}
	return io.Discard
}
