package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// BenchmarkGoOutputs measures how long codegen watch takes to bring the
// per-package Go files of a saved package up to date, through file
// notifications as an editor saves: "cycle-p50-ms" from the save to the
// cycle's report (its CRDs and swagger docs on disk), and for an edit
// that makes a gengo run due, "gengo-p50-ms" from the save to that run's
// report (deepcopy and model name files on disk) and "gengo-run-ms" the
// run itself (load, generation, write). Rows: a doc comment and a new
// pointer field, on the example tree with deepcopy-gen and model name
// tags (withGoOutputs) and, with GATEDCRD_BENCH_MODULE set (make bench),
// in InfrastructureSpec of the real tree's config/v1.
func BenchmarkGoOutputs(b *testing.B) {
	const field = "\t// benchCount was added by the benchmark.\n\t// +optional\n\tBenchCount *int32 `json:\"benchCount,omitempty\"`\n"
	type row struct {
		name, file, typ string
		gengo           bool
	}
	rows := []row{{"example/doc-comment", stableTypes, "", false}, {"example/new-field", stableTypes, "StableConfigTypeSpec", true}}
	if os.Getenv("GATEDCRD_BENCH_MODULE") != "" {
		rows = append(rows,
			row{"openshift-api/doc-comment", "config/v1/types_infrastructure.go", "", false},
			row{"openshift-api/new-field", "config/v1/types_infrastructure.go", "InfrastructureSpec", true})
	}
	for _, rw := range rows {
		b.Run(rw.name, func(b *testing.B) {
			var dir string
			if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" && rw.name[:len("openshift-api")] == "openshift-api" {
				dir = testtree.RealTree(b, "../../../hack/real-tree.sh", m)
			} else {
				dir = exampleTree(b, true, false)
				withGoOutputs(b, dir)
			}
			edit := func(p string) { testtree.ToggleDoc(b, p) }
			if rw.typ != "" {
				edit = func(p string) { testtree.ToggleField(b, p, rw.typ, field) }
			}
			benchGoOutputs(b, dir, filepath.Join(dir, rw.file), edit, rw.gengo)
		})
	}
}

func benchGoOutputs(b *testing.B, dir, file string, edit func(string), gengo bool) {
	in, later := goOutputs()
	reports := running(b, dir, Options{Out: benchOut(), Outputs: in, GengoOutputs: later})
	if r := <-reports; r.Err != nil {
		b.Fatalf("first cycle: %v", r.Err)
	}
	var cycles, saves, runs []time.Duration
	next := func(what string) Report {
		select {
		case r := <-reports:
			if r.Err != nil {
				b.Fatalf("%s: %+v", what, r)
			}
			return r
		case <-time.After(5 * time.Minute):
			b.Fatalf("%s: no report", what)
		}
		return Report{}
	}
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		edit(file)
		if r := next("cycle"); r.Generators != nil || r.Written == 0 {
			b.Fatalf("cycle: %+v", r)
		}
		cycles = append(cycles, time.Since(start))
		if gengo {
			r := next("gengo run")
			if r.Generators == nil {
				b.Fatalf("gengo run: %+v", r)
			}
			saves = append(saves, time.Since(start))
			runs = append(runs, r.Duration)
		}
		b.StopTimer()
		select {
		case r := <-reports:
			b.Fatalf("an unexpected report: %+v", r)
		case <-time.After(thinkTime):
		}
		b.StartTimer()
	}
	b.StopTimer()
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Milliseconds())
	}
	b.ReportMetric(median(cycles), "cycle-p50-ms")
	if gengo {
		b.ReportMetric(median(saves), "gengo-p50-ms")
		b.ReportMetric(median(runs), "gengo-run-ms")
	}
}
