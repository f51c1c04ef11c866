package partialschemas

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestErrors runs stage 1 once over a tree holding one API group per
// directory of testdata/errors (each a malformed or duplicate marker, a bad
// gate name or an unsupported field type) and compares each group's
// diagnostics with the case's want.txt. Nothing may be written for a group
// with an error. Missing doc.go and register.go files are generated.
func TestErrors(t *testing.T) {
	casesDir := filepath.Join("testdata", "errors")
	entries, err := os.ReadDir(casesDir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	var cases []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		cases = append(cases, name)
		err := filepath.WalkDir(filepath.Join(casesDir, name), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() == "want.txt" {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(casesDir, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := files[name+"/v1/doc.go"]; !ok {
			files[name+"/v1/doc.go"] = fmt.Sprintf("// +groupName=%s.example.io\npackage v1\n", name)
		}
		files[name+"/v1/register.go"] = fmt.Sprintf("package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n"+
			"var GroupVersion = schema.GroupVersion{Group: %q, Version: \"v1\"}\n", name+".example.io")
	}
	f := loadTree(t, testtree.Write(t, files), nil)
	res, tr, probs := f.run(t)
	items := probs.Items()
	changes := changesOf(t, tr)
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			got := renderDiags(filterDiags(items, name))
			if !strings.Contains(got, "error: ") {
				t.Errorf("no error reported:\n%s", got)
			}
			testtree.Golden(t, filepath.Join(casesDir, name, "want.txt"), []byte(got))
			for _, c := range changes {
				if strings.HasPrefix(tree.Rel(f.base, c.Path), name+"/") {
					t.Errorf("%s: %s despite the error", tree.Rel(f.base, c.Path), c.Kind)
				}
			}
		})
	}
	for _, d := range items {
		if d.File == "" {
			t.Errorf("diagnostic without a file: %s", d)
		}
	}
	golden(t, "errors-result.txt", renderResult(f.base, res))

	// Without a Problems list Run returns the same errors as its error,
	// like every stage.
	_, err = Run(Input{Discovery: f.disc, Universe: f.u, Tree: tree.New()})
	if want := probs.Err(); err == nil || err.Error() != want.Error() {
		t.Errorf("Run without Problems returned %v, want the listed errors", err)
	}
}
