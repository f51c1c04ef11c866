package watch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/trace"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// BenchmarkSaveToDisk measures codegen watch's save-to-files-on-disk
// latency: from the rename that saves a Go file to the end of the
// cycle's write, through file notification, the debounce
// (DefaultDebounce) and the cycle. Each iteration makes an edit or undoes
// it, so every cycle writes files, and then waits thinkTime, as an author
// reads the result before saving again: what the watcher does between
// cycles (parsing the files a cycle wrote, see memo.go) happens then, as
// in use, and not in the next save's latency. It reports the median and
// the 90th percentile, the CPU time of the process per cycle, the work
// between cycles included (cpu-ms/cycle), and the part of it spent from
// the save to the cycle's report (save-cpu-ms/cycle): on a loaded
// machine the wall times say little, and the CPU spent on the way to the
// files on disk, the latency's share, depends far less on the load; so do
// the collections and the bytes allocated in that span (save-gcs/cycle,
// save-alloc-MiB/cycle) and the median wall time of each pipeline step
// ("<step>-ms", "rest-ms" for the debounce, the write and the watcher's
// own work), and that of the time from the save to the start of its
// cycle ("wait-ms": the notification, the debounce, the watcher's parse
// of the saved file), a part of "rest-ms". The example tree always runs, with
// a doc-comment edit (testtree.ToggleDoc); the real tree of make
// conformance runs when GATEDCRD_BENCH_MODULE names it (make bench sets
// it), fetched and prepared by hack/real-tree.sh, with three edits: a doc
// comment in config/v1/types_infrastructure.go, a new gated field in the
// same file, and a doc comment of TLSSecurityProfile
// (config/v1/types_tlssecurityprofile.go), a type CRDs of three
// group-versions hold. "full" regenerates every group-version on each
// cycle (codegen watch --full), "restricted" only the CRDs reaching the
// changed declarations.
func BenchmarkSaveToDisk(b *testing.B) {
	type row struct {
		name, file string
		edit       func(testing.TB, string)
	}
	rows := []row{{"example/doc-comment", stableTypes, testtree.ToggleDoc}}
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		rows = append(rows,
			row{"openshift-api/doc-comment", "config/v1/types_infrastructure.go", testtree.ToggleDoc},
			row{"openshift-api/gated-field", "config/v1/types_infrastructure.go", toggleGatedField},
			row{"openshift-api/shared-type", "config/v1/types_tlssecurityprofile.go", testtree.ToggleDoc})
	}
	for _, rw := range rows {
		for _, full := range []bool{false, true} {
			mode := "restricted"
			if full {
				mode = "full"
			}
			b.Run(rw.name+"/"+mode, func(b *testing.B) {
				var dir string
				if strings.HasPrefix(rw.name, "example/") {
					dir = exampleTree(b, true, false)
				} else {
					dir = testtree.RealTree(b, "../../../hack/real-tree.sh", os.Getenv("GATEDCRD_BENCH_MODULE"))
				}
				benchSaves(b, dir, filepath.Join(dir, rw.file), rw.edit, full)
			})
		}
	}
}

// thinkTime is the pause between the end of a cycle and the next save in
// BenchmarkSaveToDisk: an author looks at the regenerated files, or at
// least at the cycle line, before the next edit.
const thinkTime = time.Second

func benchSaves(b *testing.B, dir, file string, edit func(testing.TB, string), full bool) {
	steps := make(chan []pipeline.StageTiming, 4)
	opts := Options{Full: full, Out: benchOut(), BeforeReport: func(r *pipeline.Run) { steps <- r.Stats.Stages }}
	reports := running(b, dir, opts)
	if r := <-reports; r.Err != nil {
		b.Fatalf("first cycle: %v", r.Err)
	}
	<-steps
	var lat []time.Duration
	var waits []time.Duration // from the save to the start of its cycle
	perStep := map[string][]time.Duration{}
	var scope []string
	var saveToDisk time.Duration    // CPU time from the saves to the reports
	var savedGCs, savedAlloc uint64 // collections and bytes allocated in the same spans
	cpu := cpuTime()
	profile := profileSaves(b)
	stopTrace := traceCycles(b)
	b.ResetTimer()
	for b.Loop() {
		startMem := memStats()
		start, startCPU := time.Now(), cpuTime()
		saving := trace.StartRegion(context.Background(), saveRegion)
		profile.start()
		edit(b, file)
		select {
		case r := <-reports:
			if r.Err != nil || r.Written == 0 {
				b.Fatalf("cycle: %+v", r)
			}
			scope = r.Scope
			waits = append(waits, time.Since(start)-r.Duration)
		case <-time.After(2 * time.Minute):
			b.Fatal("no cycle")
		}
		lat = append(lat, time.Since(start))
		saveToDisk += cpuTime() - startCPU
		saving.End()
		profile.stop()
		end := memStats()
		addSteps(perStep, <-steps, lat[len(lat)-1])
		savedGCs += uint64(end.NumGC - startMem.NumGC)
		savedAlloc += end.TotalAlloc - startMem.TotalAlloc
		b.StopTimer()
		time.Sleep(thinkTime)
		b.StartTimer()
	}
	b.StopTimer()
	stopTrace()
	profile.write()
	cpu = cpuTime() - cpu
	reportSteps(b, perStep)
	reportSteps(b, map[string][]time.Duration{"wait": waits})
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*9)/10].Milliseconds()), "p90-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(len(lat)), "cpu-ms/cycle")
	b.ReportMetric(float64(saveToDisk.Milliseconds())/float64(len(lat)), "save-cpu-ms/cycle")
	b.ReportMetric(float64(savedGCs)/float64(len(lat)), "save-gcs/cycle")
	b.ReportMetric(float64(savedAlloc>>20)/float64(len(lat)), "save-alloc-MiB/cycle")
	b.ReportMetric(float64(len(scope)), "group-versions")
}

// addSteps adds one cycle's step timings to perStep, and what the steps
// leave of its save-to-disk latency as "rest": the debounce, the write and
// the watcher's own bookkeeping.
func addSteps(perStep map[string][]time.Duration, steps []pipeline.StageTiming, latency time.Duration) {
	rest := latency
	for _, st := range steps {
		d := time.Duration(st.Seconds * float64(time.Second))
		perStep[st.Name] = append(perStep[st.Name], d)
		rest -= d
	}
	perStep["rest"] = append(perStep["rest"], rest)
}

// reportSteps reports the median wall time of each pipeline step of the
// cycles ("<step>-ms"), so a benchmark line says where a save's latency
// goes.
func reportSteps(b *testing.B, perStep map[string][]time.Duration) {
	for name, ds := range perStep {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds())/1000, name+"-ms")
	}
}

// memStats reads the collector's statistics (it stops the world briefly,
// outside the spans measured).
func memStats() runtime.MemStats {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// running starts a watcher of dir (opts with NewRun and OnCycle set) on
// its own goroutine, stopped and closed when the test ends, and returns
// the reports of its cycles.
func running(t testing.TB, dir string, opts Options) <-chan Report {
	t.Helper()
	reports := make(chan Report, 4)
	opts.NewRun = newRun(dir)
	opts.OnCycle = func(r Report) { reports <- r }
	w, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	runInBackground(t, w)
	return reports
}

// runInBackground runs w on its own goroutine until the test ends, and
// closes it then; the error Run returns fails the test.
func runInBackground(t testing.TB, w *Watcher) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		w.Close()
	})
}

// toggleGatedField adds a field gated by an existing FeatureGate to
// InfrastructureSpec of the real tree, or removes it, saving by rename.
func toggleGatedField(t testing.TB, p string) {
	const field = "\t// benchField was added by the benchmark.\n\t// +openshift:enable:FeatureGate=VSphereMultiVCenterDay2\n\t// +optional\n\tBenchField string `json:\"benchField,omitempty\"`\n"
	testtree.ToggleField(t, p, "InfrastructureSpec", field)
}

// benchOut shows the cycle lines with GATEDCRD_BENCH_VERBOSE set.
func benchOut() io.Writer {
	if os.Getenv("GATEDCRD_BENCH_VERBOSE") != "" {
		return os.Stderr
	}
	return io.Discard
}

// saveRegion names the trace region of BenchmarkSaveToDisk's goroutine
// from a save to the cycle's report: the spans to read in a trace of the
// cycles (traceCycles), whose other parts are the think time between them.
const saveRegion = "save-to-report"

// traceCycles writes an execution trace of the cycles, each save-to-report
// span a region (saveRegion) with the pipeline's steps in regions of their
// own, to the file GATEDCRD_BENCH_TRACE names, when set: where the cores
// idle during a save (go tool trace); call the function it returns after
// the last cycle.
func traceCycles(b *testing.B) (stop func()) {
	return recordTo(b, "GATEDCRD_BENCH_TRACE", trace.Start, trace.Stop)
}

// recordTo starts a recording (start) into the file the environment
// variable env names, when set, and returns the function that stops it
// (stop) and closes the file.
func recordTo(b *testing.B, env string, start func(io.Writer) error, stop func()) func() {
	p := os.Getenv(env)
	if p == "" {
		return func() {}
	}
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := start(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		stop()
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
