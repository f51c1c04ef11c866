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
)

// BenchmarkRealCorpus runs every suite of a real API repository, fetched
// as the Go module named by GATEDCRD_BENCH_MODULE, on the Kubernetes
// version GATEDCRD_BENCH_KUBE_VERSION (default: the linked one), through
// the command. The program is built before the timer starts; each
// iteration includes starting the server. make bench sets both to what
// make conformance-suites runs.
func BenchmarkRealCorpus(b *testing.B) {
	module := os.Getenv("GATEDCRD_BENCH_MODULE")
	if module == "" {
		b.Skip("set GATEDCRD_BENCH_MODULE to a module@version holding suites")
	}
	minor := os.Getenv("GATEDCRD_BENCH_KUBE_VERSION")
	if minor == "" {
		minor = kubeversion.Linked
	}
	v, err := kubeversion.Lookup(minor)
	if err != nil {
		b.Fatal(err)
	}
	if v.Minor != kubeversion.Linked {
		if _, err := kubeversion.Build(b.Context(), v, kubeversion.BuildOptions{Progress: os.Stderr}); err != nil {
			b.Fatal(err)
		}
	}
	dir := moduleDir(b, module)
	var passed int
	for b.Loop() {
		var out bytes.Buffer
		if code := run(b.Context(), []string{"--base-dir", dir, "--kube-version", v.Minor}, &out, io.Discard); code != exitPassed {
			b.Fatalf("exit %d:\n%s", code, out.String())
		}
		m := summaryLine.FindStringSubmatch(lastLine(out.String()))
		passed, _ = strconv.Atoi(m[1])
	}
	b.ReportMetric(float64(passed), "tests/op")
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
