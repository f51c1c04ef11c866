package goload

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestLoadDoesNotPrepareCgo proves that the load does not have the go
// command prepare cgo packages (go list -compiled), which costs two thirds
// of its time: net, a cgo package of the standard library, comes with its
// pure-Go files only, none generated into the build cache.
func TestLoadDoesNotPrepareCgo(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\nimport \"net\"\n\n// Widget is a type.\ntype Widget struct{ Addr net.IP }\n",
	})
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/v1"
	u, err := Load(dir, []string{importPath})
	if err != nil {
		t.Fatal(err)
	}
	net := u.Package("net")
	if net == nil {
		t.Fatal("net is not part of the universe")
	}
	if len(net.GoFiles) == 0 || !slices.Equal(net.CompiledGoFiles, net.GoFiles) {
		t.Errorf("net's compiled files %v are not its Go files %v", net.CompiledGoFiles, net.GoFiles)
	}
	root := u.Root(importPath)
	u.Checker.Check(root)
	if errs := ReportableErrors(root); len(errs) > 0 {
		t.Errorf("loading: %v", errs)
	}
	if root.Types.Scope().Lookup("Widget") == nil {
		t.Error("Widget is not in the checked package")
	}
}
