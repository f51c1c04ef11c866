package partialschemas

import (
	"fmt"
	"os"
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

// rootPlaceholder in a fixture's Go files stands for the import path of the
// directory the fixture was copied to, so fixtures can import each other.

// fixture is a copied, discovered and loaded test tree.
type fixture struct {
	base string
	disc *discovery.Result
	u    *goload.Universe
}

// loadFixture copies testdata/fixtures/<name>, discovers it with filter and
// loads the selected versions.
func loadFixture(t *testing.T, name string, filter []string) *fixture {
	t.Helper()
	return loadTree(t, testtree.Copy(t, filepath.Join("testdata", "fixtures", name)), filter)
}

// loadTree discovers and loads the tree at base after substituting
// testload.RootPlaceholder.
func loadTree(t *testing.T, base string, filter []string) *fixture {
	t.Helper()
	disc, u := testload.Load(t, base, filter)
	return &fixture{base: base, disc: disc, u: u}
}

// run executes stage 1 on a fresh tree.
func (f *fixture) run(t *testing.T) (*Result, *tree.Tree, *diag.List) {
	t.Helper()
	tr := tree.New()
	probs := &diag.List{}
	res, err := Run(Input{Discovery: f.disc, Universe: f.u, Tree: tr, Problems: probs})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res, tr, probs
}

// path returns the absolute path of a slash-separated path in the tree.
func (f *fixture) path(rel string) string { return filepath.Join(f.base, filepath.FromSlash(rel)) }

func (f *fixture) write(t *testing.T, rel, content string) {
	t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) read(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(f.path(rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// commit writes a tree's changes to the fixture.
func commit(t *testing.T, tr *tree.Tree) {
	t.Helper()
	if _, err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
}

func changesOf(t *testing.T, tr *tree.Tree) []tree.Change {
	t.Helper()
	changes, _, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	return changes
}

// renderChanges prints every change below base: its kind, its path and
// the new content.
func renderChanges(base string, changes []tree.Change) string {
	var b strings.Builder
	for _, c := range changes {
		fmt.Fprintf(&b, "=== %s %s\n", c.Kind, filepath.ToSlash(tree.Rel(base, c.Path)))
		if c.Kind == tree.Create || c.Kind == tree.Update {
			b.Write(c.New)
			if len(c.New) == 0 {
				b.WriteString("(empty)\n")
			}
		}
	}
	return b.String()
}

// renderDiags prints diagnostics one per line with their severity.
func renderDiags(items []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range items {
		fmt.Fprintf(&b, "%s: %s\n", d.Severity, filepath.ToSlash(d.String()))
	}
	return b.String()
}

// renderResult prints what a Result says about each version.
func renderResult(base string, res *Result) string {
	var b strings.Builder
	for _, s := range res.Skipped {
		fmt.Fprintf(&b, "skipped %s: %s\n", filepath.ToSlash(tree.Rel(base, s.Version.Dir)), s.Reason)
	}
	for _, v := range res.Versions {
		fmt.Fprintf(&b, "version %s (%s) failed=%v summary=%s\n", filepath.ToSlash(tree.Rel(base, v.Version.Dir)), v.Name, v.Failed,
			filepath.ToSlash(tree.Rel(base, v.SummaryFile)))
		for _, c := range v.CRDs {
			fmt.Fprintf(&b, "  crd %s kind=%s plural=%s scope=%s at %s:%d failed=%v\n", c.Name, c.Kind, c.Plural, c.Scope, filepath.ToSlash(c.File), c.Line, c.Failed)
			fmt.Fprintf(&b, "    gates=%q top-level=%q\n", c.Gates, c.TopLevelGates)
			for _, m := range c.Manifests {
				fmt.Fprintf(&b, "    %s gates=%q %s\n", filepath.ToSlash(tree.Rel(base, m.Path)), m.GateNames, m.Action)
			}
		}
	}
	return b.String()
}

// filterDiags keeps the diagnostics whose file lies below dir (slash
// separated, relative to the base directory).
func filterDiags(items []diag.Diagnostic, dir string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range items {
		if strings.HasPrefix(filepath.ToSlash(d.File), dir+"/") {
			out = append(out, d)
		}
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	testtree.Golden(t, filepath.Join("testdata", "golden", name), []byte(got))
}

func noErrors(t *testing.T, probs *diag.List) {
	t.Helper()
	if probs.HasErrors() {
		t.Fatalf("unexpected errors:\n%s", renderDiags(probs.Items()))
	}
}
