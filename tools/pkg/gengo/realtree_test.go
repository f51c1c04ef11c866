package gengo

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestRealTree regenerates the deepcopy and OpenAPI files of a real API
// repository (GATEDCRD_GENGO_TREE: its directory) from one universe and
// compares them with the committed ones.
func TestRealTree(t *testing.T) {
	dir := os.Getenv("GATEDCRD_GENGO_TREE")
	if dir == "" {
		t.Skip("GATEDCRD_GENGO_TREE names no tree")
	}
	pkgs := apiPackages(t, dir)
	u, err := Load(dir, append(append([]string{}, OpenAPIKubernetesPackages...), pkgs...))
	if err != nil {
		t.Fatal(err)
	}
	tr := tree.New()
	paths, err := u.Deepcopy(tr, pkgs, DeepcopyOptions{OutputFile: "zz_generated.deepcopy.go"})
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	os.Chdir(dir)
	oa, err := u.OpenAPI(tr, append(append([]string{}, OpenAPIKubernetesPackages...), pkgs...), OpenAPIOptions{OutputDir: "openapi/generated_openapi", OutputFile: "zz_generated.openapi.go"})
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, filepath.Join(dir, oa))
	same := 0
	for _, p := range paths {
		got, _ := tr.ReadFile(p)
		want, _ := os.ReadFile(p)
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs", p)
			if d := os.Getenv("GATEDCRD_GENGO_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, strings.ReplaceAll(p, "/", "_")), got, 0o644)
			}
		} else {
			same++
		}
	}
	t.Logf("%d of %d files byte-identical", same, len(paths))
}

// apiPackages are the import paths of the API group-versions of the tree
// at dir.
func apiPackages(t testing.TB, dir string) []string {
	t.Helper()
	disc, _, err := discovery.Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, v := range disc.Versions() {
		pkgs = append(pkgs, v.ImportPath)
	}
	return pkgs
}
