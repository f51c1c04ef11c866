package partialschemas

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// stageOutput renders all a stage 1 run decided: the result, the writes
// and the problems.
func stageOutput(t *testing.T, disc *discovery.Result, u *goload.Universe, cache *IndexCache) string {
	t.Helper()
	tr := tree.New()
	probs := &diag.List{}
	res, err := Run(Input{Discovery: disc, Universe: u, Tree: tr, Problems: probs, Indexes: cache})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return renderResult(disc.BaseDir, res) + renderChanges(disc.BaseDir, changesOf(t, tr)) + renderDiags(probs.Items())
}

// TestIndexCacheFollowsTheSyntax runs stage 1 as codegen watch does, on
// the packages a goload.Session keeps, with one IndexCache: a run over
// unchanged packages builds no index, and after an edit of a package the
// walk reaches (a gate marker added) that package is indexed again while
// the others are served; every run decides what a run without cache on a
// fresh load decides.
func TestIndexCacheFollowsTheSyntax(t *testing.T) {
	base := testtree.Copy(t, filepath.Join("testdata", "fixtures", "gates"))
	disc, _ := testload.Load(t, base, nil)
	var paths []string
	for _, v := range disc.Versions() {
		paths = append(paths, v.ImportPath)
	}
	session := goload.NewSession(base)
	cache := NewIndexCache()
	fresh := func() string {
		t.Helper()
		d, u := testload.Load(t, base, nil)
		return stageOutput(t, d, u, nil)
	}
	cycle := func(what string, changed []string) *goload.Universe {
		t.Helper()
		u, _, err := session.Universe(paths, changed, changed == nil, goload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := stageOutput(t, disc, u, cache), fresh(); got != want {
			t.Errorf("%s:\n%s\nwant:\n%s", what, got, want)
		}
		return u
	}
	cycle("first run", nil)
	built := cache.Built
	if built == 0 || cache.Reused != 0 {
		t.Fatalf("first run: %d built, %d reused", cache.Built, cache.Reused)
	}
	u := cycle("unchanged packages", []string{})
	if cache.Built != built || cache.Reused != built {
		t.Errorf("run over unchanged packages: %d built, %d reused; want 0 and %d", cache.Built-built, cache.Reused, built)
	}
	// Dropping the function bodies changes the syntax in place: the
	// packages that had some are indexed again.
	u.DropFunctionBodies()
	cycle("bodies dropped", []string{})
	if cache.Built == built {
		t.Error("no package was indexed again once its function bodies were dropped")
	}
	built = cache.Built
	f := &fixture{base: base}
	lib := f.path("lib/lib.go")
	f.write(t, "lib/lib.go", strings.Replace(f.read(t, "lib/lib.go"), "\tNote string", "\t// +openshift:enable:FeatureGate=OtherLibGate\n\tNote string", 1))
	reused, indexed := cache.Reused, cache.Len()
	cycle("lib edited", []string{lib})
	if cache.Built != built+1 || cache.Reused != reused+indexed-1 {
		t.Errorf("after the edit: %d built, %d reused; want 1 and %d", cache.Built-built, cache.Reused-reused, indexed-1)
	}
	if !strings.Contains(fresh(), "OtherLibGate") {
		t.Error("the edit changes nothing stage 1 decides")
	}
}
