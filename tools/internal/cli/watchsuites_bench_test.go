package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// BenchmarkSaveToSuiteResult measures codegen watch --suites from the
// save of a doc-comment edit (by rename) to the result line of the
// suites it re-runs: file notification, debounce, the cycle, and the run
// of the suites of every CRD file the edit changed on the warm API
// server of GATEDCRD_BENCH_KUBE_VERSION (default 1.32; its program is
// built the first time). Each iteration toggles the description of the
// first field of the first struct of the file. It reports the median,
// the 90th percentile and the pairs run. The example tree always runs;
// the real tree of make conformance when GATEDCRD_BENCH_MODULE names it,
// editing config/v1/types_infrastructure.go (the infrastructure CRD's
// suites).
func BenchmarkSaveToSuiteResult(b *testing.B) {
	kube := os.Getenv("GATEDCRD_BENCH_KUBE_VERSION")
	if kube == "" {
		kube = "1.32"
	}
	bins := b.TempDir()
	goBuild(b, "../../cmd/codegen", filepath.Join(bins, "codegen"))
	goBuild(b, "../../../apitest/cmd/apitest", filepath.Join(bins, "apitest"))
	trees := []struct{ name, file string }{{"example", "example/v1/types_stable.go"}}
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		trees = append(trees, struct{ name, file string }{"openshift-api", "config/v1/types_infrastructure.go"})
	}
	for _, tr := range trees {
		b.Run(tr.name+"/"+kube, func(b *testing.B) {
			var dir string
			if tr.name == "example" {
				dir = exampleTree(b, true)
			} else {
				dir = testtree.RealTree(b, "../../../hack/real-tree.sh", os.Getenv("GATEDCRD_BENCH_MODULE"))
			}
			benchSuiteRuns(b, bins, dir, tr.file, kube)
		})
	}
}

func benchSuiteRuns(b *testing.B, bins, dir, file, kube string) {
	cmd := exec.Command(filepath.Join(bins, "codegen"), "watch", "--suites", "-q", "--apitest", filepath.Join(bins, "apitest"),
		"--base-dir", dir, "--kube-version", kube)
	log := startLogged(b, cmd)
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		if os.Getenv("GATEDCRD_BENCH_VERBOSE") != "" {
			b.Log(log.text())
		}
	}()
	log.waitFor(b, "apitest: API server of Kubernetes")
	log.waitFor(b, "suites #1: ")
	var lat []time.Duration
	pairs := 0
	cycle := 1
	for b.Loop() {
		start := time.Now()
		testtree.ToggleDoc(b, filepath.Join(dir, file))
		cycle++
		line := log.waitFor(b, "suites #"+strconv.Itoa(cycle)+": ")
		lat = append(lat, time.Since(start))
		m := suiteCounts.FindStringSubmatch(line)
		if m == nil || m[2] != "0" {
			b.Fatalf("%s\n%s", line, log.text())
		}
		pairs, _ = strconv.Atoi(m[3])
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*9)/10].Milliseconds()), "p90-ms")
	b.ReportMetric(float64(pairs), "pairs")
}
