package schemapatch

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// prepare copies testdata/fixtures/<name> into a fresh testdata/run-*/
// directory. Fixture Go files import each other through
// testload.RootPlaceholder, which load substitutes.
func prepare(t testing.TB, name string) string {
	t.Helper()
	return testtree.Copy(t, filepath.Join("testdata", "fixtures", name))
}

// write creates a tree from files (see testtree.Write).
func write(t testing.TB, files map[string]string) string {
	t.Helper()
	return testtree.Write(t, files)
}

// loaded is a discovered and loaded tree, ready for Run.
type loaded struct {
	base      string
	discovery *discovery.Result
	universe  *goload.Universe
	// enumFromConstants is Input.EnumFromConstants.
	enumFromConstants bool
}

func load(t testing.TB, base string) *loaded {
	t.Helper()
	res, u := testload.Load(t, base, nil)
	return &loaded{base: base, discovery: res, universe: u}
}

// runStage runs the stage on a fresh Tree.
func (l *loaded) run(t testing.TB) (*Result, *diag.List, *tree.Tree) {
	t.Helper()
	tr := tree.New()
	list := &diag.List{}
	res, err := Run(Input{Discovery: l.discovery, Universe: l.universe, Tree: tr, Problems: list, EnumFromConstants: l.enumFromConstants})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res, list, tr
}

// mustRun runs the stage and fails on any reported error.
func (l *loaded) mustRun(t testing.TB) (*Result, *tree.Tree) {
	t.Helper()
	res, list, tr := l.run(t)
	if list.HasErrors() {
		t.Fatalf("unexpected problems:\n%v", list.Err())
	}
	return res, tr
}

// yamlFiles returns every .yaml file below dir as the Tree sees it, by
// slash-separated path relative to dir.
func yamlFiles(t testing.TB, tr *tree.Tree, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var walk func(string)
	walk = func(d string) {
		entries, err := tr.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := filepath.Join(d, e.Name)
			if e.IsDir {
				walk(p)
				continue
			}
			if !strings.HasSuffix(e.Name, ".yaml") {
				continue
			}
			data, err := tr.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)] = string(data)
		}
	}
	walk(dir)
	return out
}

// goldenYAML compares every .yaml file below base (as the Tree sees it)
// with testdata/golden/<name>/, both ways, or rewrites the golden directory
// with -update.
func goldenYAML(t *testing.T, tr *tree.Tree, base, name string) {
	t.Helper()
	got := yamlFiles(t, tr, base)
	goldenDir := filepath.Join("testdata", "golden", name)
	if *testtree.Update {
		_ = os.RemoveAll(goldenDir)
	}
	for _, rel := range sortedKeys(got) {
		testtree.Golden(t, filepath.Join(goldenDir, filepath.FromSlash(rel)), []byte(got[rel]))
	}
	if *testtree.Update {
		return
	}
	want := testtree.Snapshot(t, goldenDir)
	for _, rel := range testtree.Paths(want) {
		if _, ok := got[rel]; !ok {
			t.Errorf("golden file %s has no counterpart in the output", rel)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// problemStrings renders the diagnostics of list, one string each.
func problemStrings(list *diag.List) []string {
	var out []string
	for _, d := range list.Items() {
		out = append(out, d.Severity.String()+": "+d.String())
	}
	return out
}

// partialManifest renders a partial manifest as stage 1 writes it (no
// schema) for the given gates ("" for the ungated one).
func partialManifest(group, plural, kind, version string, gates ...string) string {
	annotations := map[string]any{}
	for _, g := range gates {
		annotations[manifest.FeatureGateAnnotationPrefix+g] = "true"
	}
	obj := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": plural + "." + group, "annotations": annotations},
		"spec": map[string]any{
			"group": group,
			"names": map[string]any{
				"kind": kind, "listKind": kind + "List", "plural": plural, "singular": strings.ToLower(kind),
			},
			"scope":    "Cluster",
			"versions": []any{map[string]any{"name": version, "served": true, "storage": true}},
		},
	}
	data, err := manifest.Marshal(obj)
	if err != nil {
		panic(err)
	}
	return string(data)
}
