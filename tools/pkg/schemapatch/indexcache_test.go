package schemapatch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestIndexCacheReusesOnlyPackagesWithTheSameSyntax runs the stage as
// codegen watch does, with a package session and an IndexCache from run
// to run: a run after no change reuses every index and writes the same
// manifests, but for the packages that lost their function bodies since
// (a marker comment inside one is gone with them); after a doc comment of the
// kind's package is edited, that package is indexed again (its new
// description is written, as a fresh run writes it) while the unchanged
// package (metav1) is still reused. Each run collects ahead the markers
// of the packages the run before built schemas from (things/v1, and
// metav1 for TypeMeta) while they have the same syntax.
func TestIndexCacheReusesOnlyPackagesWithTheSameSyntax(t *testing.T) {
	files := thingsAPI("// ThingSpec is the spec.\ntype ThingSpec struct {\n\t// size is the size.\n\tSize int `json:\"size\"`\n}\n\nfunc (s ThingSpec) empty() bool { return s.Size == 0 }\n", []string{""})
	base := write(t, files)
	disc, _ := testload.Load(t, base, nil)
	var roots []string
	for _, g := range disc.Groups {
		for _, v := range g.Versions {
			roots = append(roots, v.ImportPath)
		}
	}
	session, cache := goload.NewSession(base), NewIndexCache()
	prefetched := -1
	run := func(dropBodies bool, changed ...string) map[string]string {
		t.Helper()
		u, _, err := session.Universe(roots, changed, false, goload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range u.Roots {
			u.Checker.Check(r)
		}
		if dropBodies {
			u.DropFunctionBodies() // as the pipeline does before stage 1
		}
		tr, list := tree.New(), &diag.List{}
		res, err := Run(Input{Discovery: disc, Universe: u, Tree: tr, Problems: list, Indexes: cache})
		if err != nil || list.HasErrors() {
			t.Fatalf("Run: %v %v", err, list.Err())
		}
		prefetched = res.Prefetched
		return yamlFiles(t, tr, base)
	}

	first := run(false)
	if cache.Built != 2 || cache.Reused != 0 || prefetched != 0 {
		t.Fatalf("first run: %d indexes built, %d reused; want things/v1 and metav1 built", cache.Built, cache.Reused)
	}
	if again := run(true); !reflect.DeepEqual(again, first) {
		t.Fatal("a run after no change wrote other manifests")
	}
	if cache.Built != 4 || cache.Reused != 0 || prefetched != 0 {
		t.Fatalf("a run after the function bodies were dropped: %d indexes built, %d reused in all; want both built again", cache.Built, cache.Reused)
	}
	if again := run(true); !reflect.DeepEqual(again, first) {
		t.Fatal("a third run after no change wrote other manifests")
	}
	if cache.Built != 4 || cache.Reused != 2 || prefetched != 2 {
		t.Fatalf("a run after no change: %d indexes built, %d reused in all, markers of %d packages prefetched; want both reused and prefetched", cache.Built, cache.Reused, prefetched)
	}

	types := filepath.Join(base, "things/v1/types.go")
	edited := strings.Replace(files["things/v1/types.go"], "size is the size.", "size is the edited size.", 1)
	if err := os.WriteFile(types, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	got := run(true, types)
	if cache.Built != 5 || cache.Reused != 3 || prefetched != 1 {
		t.Errorf("after the edit: %d indexes built, %d reused in all, markers of %d packages prefetched; want things/v1 built, metav1 reused and prefetched", cache.Built, cache.Reused, prefetched)
	}
	_, _, fresh := load(t, base).run(t)
	if want := yamlFiles(t, fresh, base); !reflect.DeepEqual(got, want) {
		t.Errorf("after the edit the manifests differ from a fresh run's:\n%v\nwant\n%v", got, want)
	}
	if !strings.Contains(strings.Join(mapValues(got), ""), "size is the edited size.") {
		t.Error("the edited description was not written")
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

// TestIndexCacheDropsFailedIndexes: an indexing that recorded errors on
// its package is indexed again by the next run, which reports them again.
func TestIndexCacheDropsFailedIndexes(t *testing.T) {
	ok, failed := &loader.Package{Package: &packages.Package{}}, &loader.Package{Package: &packages.Package{}}
	u := &universe{cache: NewIndexCache(), indexes: map[*loader.Package]*pkgIndex{
		ok: {packageIndex: &packageIndex{}}, failed: {packageIndex: &packageIndex{failed: true}}}}
	u.keepIndexes()
	if _, kept := u.cache.Get(ok); !kept {
		t.Error("an index without errors was not kept")
	}
	if _, kept := u.cache.Get(failed); kept {
		t.Error("an index whose package got errors was kept")
	}
}
