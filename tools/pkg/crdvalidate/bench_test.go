package crdvalidate

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// BenchmarkRealTree validates every generated CRD file of a real API
// repository, fetched as the Go module named by GATEDCRD_BENCH_MODULE
// (make bench sets it to the conformance tree), at the linked version:
// the stage's work in a codegen run, Go positions aside. docs/performance.md
// records the numbers.
func BenchmarkRealTree(b *testing.B) {
	module := os.Getenv("GATEDCRD_BENCH_MODULE")
	if module == "" {
		b.Skip("set GATEDCRD_BENCH_MODULE to a module@version holding generated CRDs")
	}
	dir := moduleDir(b, module)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "zz_generated.crd-manifests", "*.crd.yaml"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no generated CRD files in %s (%v)", dir, err)
	}
	var res *Result
	for b.Loop() {
		problems := &diag.List{}
		res, err = Run(Input{Tree: tree.New(), BaseDir: dir, Files: files, Problems: problems})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Files), "files/op")
	b.ReportMetric(float64(res.Distinct), "distinct/op")
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

// BenchmarkKeys computes the keys checkDistinct and the verdict cache
// need for the files of a doc-comment save in config/v1 of the real tree
// (Infrastructure and ControllerConfig, every variant), each with itself
// as its previous version (parsed once, as in the cycles of codegen
// watch): the part of the stage that runs even when every verdict comes
// from the cache.
func BenchmarkKeys(b *testing.B) {
	module := os.Getenv("GATEDCRD_BENCH_MODULE")
	if module == "" {
		b.Skip("set GATEDCRD_BENCH_MODULE to a module@version holding generated CRDs")
	}
	dir := moduleDir(b, module)
	var files []string
	for _, pattern := range []string{"config/v1/zz_generated.crd-manifests/*_infrastructures-*.crd.yaml", "machineconfiguration/v1/zz_generated.crd-manifests/*_controllerconfigs-*.crd.yaml"} {
		matches, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, matches...)
	}
	if len(files) == 0 {
		b.Fatalf("no Infrastructure or ControllerConfig CRD files in %s", dir)
	}
	var objs []map[string]any
	var data [][]byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		obj, err := manifest.Parse(d)
		if err != nil {
			b.Fatal(err)
		}
		objs, data = append(objs, obj), append(data, d)
		previousFingerprint(d)
	}
	for b.Loop() {
		for i, obj := range objs {
			fp := fingerprintOf(obj)
			prev := previousFingerprint(data[i])
			requestKeys(&fp, prev, true, false)
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
}
