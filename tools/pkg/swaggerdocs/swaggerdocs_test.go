package swaggerdocs

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.go")

func writePackage(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const typesGo = `package v1

// Widget is a widget.
type Widget struct {
	// name names it.
	Name string ` + "`json:\"name\"`" + `
	// ---
	// Count counts: after ---, so undocumented.
	Count int ` + "`json:\"count,omitempty\"`" + `
	Undocumented string ` + "`json:\"undocumented\"`" + `
	Hidden string ` + "`json:\"-\"`" + `
}

type Bare struct{}
`

// TestGenerate renders a package's file (golden), counts what has no doc
// comment, and documents only types*.go.
func TestGenerate(t *testing.T) {
	dir := writePackage(t, map[string]string{"types.go": typesGo, "other.go": "package v1\n\n// Other is not documented: not a types file.\ntype Other struct{}\n"})
	tr := tree.New()
	res, err := Generate(tr, Package{Dir: dir, Name: "v1"}, DefaultOutputFile)
	if err != nil {
		t.Fatal(err)
	}
	if res.Missing != 3 || !strings.Contains(res.MissingReport, "undocumented") || !strings.Contains(res.MissingReport, "Bare") {
		t.Errorf("missing = %d:\n%s", res.Missing, res.MissingReport)
	}
	got, err := tr.ReadFile(filepath.Join(dir, DefaultOutputFile))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "golden.go.txt")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("output differs from %s (rerun with -update and review):\n%s", golden, got)
	}
	if strings.Contains(string(got), "Other") {
		t.Error("other.go was documented")
	}
}

// TestGenerateReadsTheTree: a types file the run changed (a doc comment
// another generator edited) is documented as the tree holds it.
func TestGenerateReadsTheTree(t *testing.T) {
	dir := writePackage(t, map[string]string{"types.go": typesGo})
	tr := tree.New()
	tr.WriteFile(filepath.Join(dir, "types.go"), []byte(strings.Replace(typesGo, "// Widget is a widget.", "// Widget is an edited widget.", 1)))
	if _, err := Generate(tr, Package{Dir: dir, Name: "v1"}, DefaultOutputFile); err != nil {
		t.Fatal(err)
	}
	got, _ := tr.ReadFile(filepath.Join(dir, DefaultOutputFile))
	if !strings.Contains(string(got), "Widget is an edited widget.") {
		t.Errorf("the tree's version of types.go was not read:\n%s", got)
	}
}

// TestGenerateBadInput: a types file that does not parse is an error
// naming the file and line, and a package without types files one naming
// the package; neither panics.
func TestGenerateBadInput(t *testing.T) {
	dir := writePackage(t, map[string]string{"types.go": "package v1\n\ntype Broken struct {\n"})
	_, err := Generate(tree.New(), Package{Dir: dir, Name: "v1"}, DefaultOutputFile)
	if err == nil || !strings.Contains(err.Error(), "types.go:3:") {
		t.Errorf("error %v, want one at types.go:3", err)
	}
	empty := writePackage(t, map[string]string{"doc.go": "package v1\n"})
	if _, err := Generate(tree.New(), Package{Dir: empty, Name: "v1"}, DefaultOutputFile); err == nil || !strings.Contains(err.Error(), "no types*.go") {
		t.Errorf("error %v, want one saying there is no types*.go file", err)
	}
}
