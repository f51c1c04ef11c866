package goload

import (
	"go/token"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestStartedLoadServesASubset: a load started for two packages serves a
// run that keeps one of them (discovery dropped the other), positioned by
// the file set it was started with; one that must load from an overlay,
// or with another file set, is loaded anew and still correct.
func TestStartedLoadServesASubset(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"v1/types.go": "package v1\n\n// Widget is on disk.\ntype Widget struct{}\n",
		"v2/types.go": "package v2\n\ntype Gadget struct{}\n",
	})
	prefix := "github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir)
	both := []string{prefix + "/v1", prefix + "/v2"}

	fset := token.NewFileSet()
	u, err := Start(dir, fset, both).Finish(both[:1], Options{Fset: fset})
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Roots) != 1 || u.Roots[0].PkgPath != both[0] || u.Fset != fset || u.Loads() != 1 {
		t.Errorf("roots %v, own file set %v, %d loads", u.Roots, u.Fset == fset, u.Loads())
	}

	file := filepath.Join(dir, "v1", "types.go")
	overlay := map[string][]byte{file: []byte("package v1\n\n// Widget is in memory.\ntype Widget struct{}\n")}
	for _, opts := range []Options{{Fset: fset, Overlay: overlay}, {Overlay: overlay}} {
		u, err := Start(dir, fset, both).Finish(both[:1], opts)
		if err != nil {
			t.Fatal(err)
		}
		root := u.Root(both[0])
		root.NeedSyntax()
		if pos := u.Fset.Position(root.Syntax[0].Pos()); pos.Filename != file {
			t.Errorf("overlaid file positioned at %s", pos)
		}
		if got := root.Syntax[0].Comments[0].Text(); got != "Widget is in memory.\n" {
			t.Errorf("the run with an overlay sees %q", got)
		}
	}
}

// TestCancelStopsTheStartedLoad: Cancel returns once the load is over.
func TestCancelStopsTheStartedLoad(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"v1/types.go": "package v1\n\ntype Widget struct{}\n"})
	p := Start(dir, token.NewFileSet(), []string{"github.com/gatedcrd/gatedcrd/tools/pkg/goload/testdata/" + filepath.Base(dir) + "/v1"})
	p.Cancel()
	select {
	case <-p.done:
	default:
		t.Error("Cancel returned before the load ended")
	}
}
