// Package testload discovers and loads fixture trees for tests of the
// stages that need Go types. It is separate from testtree because
// discovery's own tests use testtree. It calls discovery and goload
// directly, not the pipeline package: the stages' own tests use it, and
// the pipeline imports the stages.
package testload

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

// RootPlaceholder stands for the import path of a fixture tree's root in
// fixture Go files (e.g. `import "@ROOT@/common"`): the copy's directory
// name is random, so Load substitutes the real path before loading.
const RootPlaceholder = "@ROOT@"

// Load substitutes RootPlaceholder in the tree's Go files, discovers its
// API group-versions (keeping only filter when it is non-empty) and loads
// them. Discovery problems fail the test.
func Load(t testing.TB, base string, filter []string) (*discovery.Result, *goload.Universe) {
	t.Helper()
	disc, probs, err := discovery.Discover(base, filter)
	if err != nil {
		t.Fatalf("discovery: %v", err)
	}
	if probs.HasErrors() {
		t.Fatalf("discovery problems: %v", probs.Err())
	}
	rel, err := filepath.Rel(disc.ModuleDir, base)
	if err != nil {
		t.Fatal(err)
	}
	root := disc.ModulePath + "/" + filepath.ToSlash(rel)
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(data), RootPlaceholder) {
			return err
		}
		return os.WriteFile(p, []byte(strings.ReplaceAll(string(data), RootPlaceholder, root)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, v := range disc.Versions() {
		paths = append(paths, v.ImportPath)
	}
	u, err := goload.Load(base, paths)
	if err != nil {
		t.Fatalf("loading: %v", err)
	}
	return disc, u
}
