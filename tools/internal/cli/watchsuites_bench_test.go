package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// BenchmarkSaveToSuiteResult measures codegen watch --suites from a save
// (by rename) to the result line of the suites it re-runs: file
// notification, debounce, the cycle, and the run of the suites on the
// warm API server of GATEDCRD_BENCH_KUBE_VERSION (default 1.32; its
// program is built the first time). "type-edit" toggles the description
// of the first field of the first struct of a Go file, which changes only
// descriptions in the CRDs and so runs no test (see suite.Results);
// "type-behaviour-edit" adds or removes a field with a maxLength in the
// spec struct (toggleBenchField), which runs every test of the pairs of
// every CRD file that changes; "suite-edit" toggles the name of
// the last test of one suite file (toggleLastTestName), which runs that
// file's pairs only, and of them the changed test only. It
// reports the median, the 90th percentile, and the pairs run and failed
// (a failing test is a result too, not a failure of the benchmark). The
// example tree always runs; the real tree of make conformance when
// GATEDCRD_BENCH_MODULE names it, editing config/v1/types_infrastructure.go
// (InfrastructureSpec, which the controllerconfigs CRD embeds too) and
// the infrastructures CRD's AAA_ungated.yaml suite.
func BenchmarkSaveToSuiteResult(b *testing.B) {
	kube := os.Getenv("GATEDCRD_BENCH_KUBE_VERSION")
	if kube == "" {
		kube = "1.32"
	}
	bins := b.TempDir()
	goBuild(b, "../../cmd/codegen", filepath.Join(bins, "codegen"))
	goBuild(b, "../../../apitest/cmd/apitest", filepath.Join(bins, "apitest"))
	type tree struct{ name, goFile, specType, suiteFile string }
	trees := []tree{{"example", "example/v1/types_stable.go", "StableConfigTypeSpec", "example/v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml"}}
	if m := os.Getenv("GATEDCRD_BENCH_MODULE"); m != "" {
		trees = append(trees, tree{"openshift-api", "config/v1/types_infrastructure.go", "InfrastructureSpec", "config/v1/tests/infrastructures.config.openshift.io/AAA_ungated.yaml"})
	}
	for _, tr := range trees {
		b.Run(tr.name+"/"+kube, func(b *testing.B) {
			var dir string
			if tr.name == "example" {
				dir = exampleTree(b, true)
			} else {
				dir = testtree.RealTree(b, "../../../hack/real-tree.sh", os.Getenv("GATEDCRD_BENCH_MODULE"))
			}
			w := startSuiteWatch(b, bins, dir, kube)
			defer w.stop()
			b.Run("type-edit", func(b *testing.B) {
				w.benchSaves(b, func() { testtree.ToggleDoc(b, filepath.Join(dir, tr.goFile)) })
			})
			b.Run("type-behaviour-edit", func(b *testing.B) {
				w.benchSaves(b, func() { toggleBenchField(b, filepath.Join(dir, tr.goFile), tr.specType) })
			})
			b.Run("suite-edit", func(b *testing.B) {
				w.benchSaves(b, func() { toggleLastTestName(b, filepath.Join(dir, tr.suiteFile)) })
			})
		})
	}
}

// suiteWatch is a codegen watch --suites process of a benchmark.
type suiteWatch struct {
	cmd   *exec.Cmd
	log   *outputLog
	cycle int
}

func startSuiteWatch(b *testing.B, bins, dir, kube string) *suiteWatch {
	cmd := exec.Command(filepath.Join(bins, "codegen"), "watch", "--suites", "-q", "--apitest", filepath.Join(bins, "apitest"),
		"--base-dir", dir, "--kube-version", kube)
	w := &suiteWatch{cmd: cmd, log: startLogged(b, cmd), cycle: 1}
	// The server starts while the first cycle runs; either may end first.
	w.log.waitForAll(b, "apitest: API server of Kubernetes", "suites #1: ")
	return w
}

func (w *suiteWatch) stop() {
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	_ = w.cmd.Wait()
	if os.Getenv("GATEDCRD_BENCH_VERBOSE") != "" {
		os.Stderr.WriteString(w.log.text())
	}
}

// benchSaves saves with save once per iteration and waits for the
// result line of the suites.
func (w *suiteWatch) benchSaves(b *testing.B, save func()) {
	var lat, cpu []time.Duration
	pairs, failed := 0, 0
	for b.Loop() {
		start, startCPU := time.Now(), treeCPU(w.cmd.Process.Pid)
		save()
		w.cycle++
		line := w.log.waitFor(b, "suites #"+strconv.Itoa(w.cycle)+": ")
		lat = append(lat, time.Since(start))
		cpu = append(cpu, treeCPU(w.cmd.Process.Pid)-startCPU)
		m := suiteCounts.FindStringSubmatch(line)
		if m == nil {
			b.Fatalf("%s\n%s", line, w.log.text())
		}
		failed, _ = strconv.Atoi(m[2])
		pairs, _ = strconv.Atoi(m[3])
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*9)/10].Milliseconds()), "p90-ms")
	slices.Sort(cpu)
	b.ReportMetric(cpu[len(cpu)/2].Seconds(), "p50-cpu-s")
	b.ReportMetric(float64(pairs), "pairs")
	b.ReportMetric(float64(failed), "failed-tests")
}

// toggleLastTestName appends a mark to the name of the last test of a
// suite file, or removes it, saving by rename: an edit of one test, as an
// author makes one (a comment alone changes no test).
func toggleLastTestName(b testing.TB, p string) {
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	// The tests' "- name:" lines are indented as the first one; object
	// text inside a test may hold others, indented deeper.
	lines := strings.Split(string(data), "\n")
	first := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimLeft(l, " "), "- name: ") })
	i := len(lines) - 1
	for first >= 0 && i >= first && !strings.HasPrefix(lines[i], lines[first][:strings.Index(lines[first], "-")]+"- name: ") {
		i--
	}
	if first < 0 || i < first {
		b.Fatalf("%s: no test (- name:)", p)
	}
	const mark = " (edited)"
	line := lines[i]
	quote := ""
	if q := line[len(line)-1:]; q == `"` || q == "'" {
		quote, line = q, line[:len(line)-1]
	}
	if s, found := strings.CutSuffix(line, mark); found {
		line = s
	} else {
		line += mark
	}
	lines[i] = line + quote
	testtree.SaveByRename(b, p, strings.Join(lines, "\n"))
}

// treeCPU returns the CPU time (user and system) that pid and its
// descendants have used so far: codegen, apitest and the API server
// program (Linux /proc; clock ticks taken as the usual 100 a second).
// 0 elsewhere.
func treeCPU(pid int) time.Duration {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	// The fields after the command name: state is the first, utime
	// and stime the 12th and 13th.
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	var ticks int64
	if len(fields) > 12 {
		u, _ := strconv.ParseInt(fields[11], 10, 64)
		s, _ := strconv.ParseInt(fields[12], 10, 64)
		ticks = u + s
	}
	total := time.Duration(ticks) * 10 * time.Millisecond
	for _, child := range childrenOf(pid) {
		total += treeCPU(child)
	}
	return total
}

// toggleBenchField adds an optional string field with a maxLength at the
// top of the Go struct named typeName, or removes it: a type edit that
// changes what the server accepts, unlike a doc comment's.
func toggleBenchField(b testing.TB, p, typeName string) {
	const field = "\t// benchField was added by the benchmark.\n\t// +kubebuilder:validation:MaxLength=8\n\t// +optional\n\tBenchField string `json:\"benchField,omitempty\"`\n\n"
	testtree.ToggleField(b, p, typeName, field)
}
