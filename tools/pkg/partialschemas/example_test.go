package partialschemas

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestExampleMatchesReference runs stage 1 on a fixture built to carry the
// same marker data as the reference's example group and compares the
// output with the reference's: the summary files byte for byte, the
// partial manifests byte for byte once the reference's schema is removed.
func TestExampleMatchesReference(t *testing.T) {
	f := loadFixture(t, "example", nil)
	res, tr, probs := f.run(t)
	noErrors(t, probs)
	if items := probs.Items(); len(items) > 0 {
		t.Errorf("unexpected warnings:\n%s", renderDiags(items))
	}

	got := map[string][]byte{}
	for _, c := range changesOf(t, tr) {
		if c.Kind != tree.Create {
			t.Errorf("%s: change %s on a fresh tree", c.Path, c.Kind)
		}
		got[filepath.ToSlash(tree.Rel(f.base, c.Path))] = c.New
	}
	want := map[string][]byte{}
	refDir := filepath.Join("testdata", "reference")
	err := filepath.WalkDir(refDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		rel, _ := filepath.Rel(refDir, p)
		// example-v1/... → v1/... (the fixture is the example group directory)
		rel = strings.TrimPrefix(filepath.ToSlash(rel), "example-")
		data, err := os.ReadFile(p)
		want[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 6 {
		t.Fatalf("reference data incomplete: %d files", len(want))
	}
	for rel, w := range want {
		g, ok := got[rel]
		switch {
		case !ok:
			t.Errorf("%s: not produced", rel)
		case string(g) != string(w):
			t.Errorf("%s differs from the reference:\n%s", rel, tree.UnifiedDiff(rel, w, g))
		}
	}
	for rel := range got {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s: produced, but the reference has no such file", rel)
		}
	}
	golden(t, "example-result.txt", renderResult(f.base, res))
}

// TestDeterministic runs the same input twice and expects the same bytes.
func TestDeterministic(t *testing.T) {
	f := loadFixture(t, "gates", nil)
	_, tr1, p1 := f.run(t)
	_, tr2, p2 := f.run(t)
	if a, b := renderChanges(f.base, changesOf(t, tr1)), renderChanges(f.base, changesOf(t, tr2)); a != b {
		t.Errorf("two runs differ:\n%s", tree.UnifiedDiff("changes", []byte(a), []byte(b)))
	}
	if a, b := renderDiags(p1.Items()), renderDiags(p2.Items()); a != b {
		t.Errorf("two runs report differently:\n%s", tree.UnifiedDiff("diagnostics", []byte(a), []byte(b)))
	}
}
