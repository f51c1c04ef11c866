package gengo

import (
	"os"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// BenchmarkUniverse measures what a bare codegen spends on the gengo
// generators when nothing is cached, on the real tree GATEDCRD_BENCH_MODULE
// names (make bench): one universe of every API package and the
// Kubernetes packages, then deepcopy-gen over every package and openapi-gen
// (linked kube-openapi) over all of them. The reference builds a universe
// per group-version and generator.
func BenchmarkUniverse(b *testing.B) {
	module := os.Getenv("GATEDCRD_BENCH_MODULE")
	if module == "" {
		b.Skip("GATEDCRD_BENCH_MODULE names no real tree")
	}
	dir := testtree.RealTree(b, "../../../hack/real-tree.sh", module)
	pkgs := apiPackages(b, dir)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		u, err := Load(dir, append(append([]string{}, OpenAPIKubernetesPackages...), pkgs...))
		if err != nil {
			b.Fatal(err)
		}
		t := tree.New()
		if _, err := u.Deepcopy(t, pkgs, DeepcopyOptions{OutputFile: "zz_generated.deepcopy.go"}); err != nil {
			b.Fatal(err)
		}
		if _, err := u.OpenAPI(t, append(append([]string{}, OpenAPIKubernetesPackages...), pkgs...), OpenAPIOptions{OutputDir: "openapi/generated_openapi", OutputFile: "zz_generated.openapi.go"}); err != nil {
			b.Fatal(err)
		}
	}
}
