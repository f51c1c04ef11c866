package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/internal/rusage"
)

// BenchmarkRealCorpus runs every suite of a real API repository, fetched
// as the Go module named by GATEDCRD_BENCH_MODULE, on the Kubernetes
// versions GATEDCRD_BENCH_KUBE_VERSION names (one, a list or a range, as
// --kube-version takes them; default: the linked one), through the
// command, with the skip list GATEDCRD_BENCH_SKIP names, if any. The
// programs are built before the timer starts; each iteration includes
// starting the servers. Besides the time it reports the tests that passed
// and failed (a version whose error wording differs from the suites' fails
// tests without making the figures less comparable) and the CPU seconds
// of the command and its server programs, the figure that stays
// comparable on a shared machine. make bench sets the variables to what
// make conformance-suites runs, on the 6-version matrix.
func BenchmarkRealCorpus(b *testing.B) {
	module := os.Getenv("GATEDCRD_BENCH_MODULE")
	if module == "" {
		b.Skip("set GATEDCRD_BENCH_MODULE to a module@version holding suites")
	}
	versions := os.Getenv("GATEDCRD_BENCH_KUBE_VERSION")
	if versions == "" {
		versions = kubeversion.Linked
	}
	buildPrograms(b, versions)
	args := []string{"--base-dir", moduleDir(b, module), "--kube-version", versions}
	if skip := os.Getenv("GATEDCRD_BENCH_SKIP"); skip != "" {
		args = append(args, "--skip", skip)
	}
	var passed, failed int
	cpuBefore, _ := rusage.CPU()
	for b.Loop() {
		var out bytes.Buffer
		code := run(b.Context(), args, &out, io.Discard)
		m := summaryLine.FindStringSubmatch(lastLine(out.String()))
		if m == nil || (code != exitPassed && code != exitFailed) {
			b.Fatalf("exit %d:\n%s", code, out.String())
		}
		passed, _ = strconv.Atoi(m[1])
		failed, _ = strconv.Atoi(m[2])
	}
	cpuAfter, _ := rusage.CPU()
	b.ReportMetric(float64(passed), "passed/op")
	b.ReportMetric(float64(failed), "failed/op")
	b.ReportMetric((cpuAfter-cpuBefore).Seconds()/float64(b.N), "cpu-s/op")
}

// buildPrograms builds (or finds in the cache) the server programs of the
// versions a benchmark runs, outside its timer.
func buildPrograms(b *testing.B, versions string) {
	minors, err := repoconfig.ParseKubeVersions(versions)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range minors {
		v, err := kubeversion.Lookup(m.String())
		if err != nil {
			b.Fatal(err)
		}
		if v.Minor == kubeversion.Linked {
			continue
		}
		if _, err := kubeversion.Build(b.Context(), v, kubeversion.BuildOptions{Progress: os.Stderr}); err != nil {
			b.Fatal(err)
		}
	}
}

// moduleDir downloads a module through the module proxy and returns its
// directory in the module cache.
func moduleDir(b *testing.B, module string) string {
	cmd := exec.Command("go", "mod", "download", "-json", module)
	cmd.Dir = os.TempDir() // outside any module
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("go mod download %s: %v", module, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		b.Fatalf("go mod download %s reported no directory: %s", module, out)
	}
	return info.Dir
}
