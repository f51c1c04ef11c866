package manifestmerge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// TestCoversExample reads the example group's committed output back:
// every tuple gets exactly one file of a CRD that is not gated as a whole,
// and the type-gated CRD covers exactly the tuples where its gate is on.
func TestCoversExample(t *testing.T) {
	dir, err := fgpayload.ReadDir(filepath.Join("..", "..", "..", "payload-manifests", "featuregates"))
	if err != nil {
		t.Fatal(err)
	}
	tuples, err := Tuples(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(tuples) == 0 {
		t.Fatal("no tuples")
	}
	for _, tc := range []struct {
		versionDir string
		want       func(featuregate.TupleGates) bool
	}{
		{"v1", func(featuregate.TupleGates) bool { return true }},
		{"v1alpha1", func(t featuregate.TupleGates) bool { return t.Custom() || t.IsEnabled("Example") }},
	} {
		outDir := filepath.Join("..", "..", "..", "example", tc.versionDir, OutputDirName)
		entries, err := os.ReadDir(outDir)
		if err != nil {
			t.Fatal(err)
		}
		covered := map[string][]string{}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), outputExt) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(outDir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			obj, err := manifest.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			ann := map[string]string{}
			for k, v := range annotationsOf(obj) {
				ann[k], _ = v.(string)
			}
			a, err := crdvariant.Decode(ann)
			if err != nil {
				t.Fatal(err)
			}
			for _, tu := range tuples {
				if a.Covers(tu) {
					covered[tu.String()] = append(covered[tu.String()], e.Name())
				}
			}
		}
		for _, tu := range tuples {
			files := covered[tu.String()]
			switch {
			case tc.want(tu) && len(files) != 1:
				t.Errorf("%s: tuple %s is covered by %v, want exactly one file", tc.versionDir, tu, files)
			case !tc.want(tu) && len(files) != 0:
				t.Errorf("%s: tuple %s is covered by %v, want none", tc.versionDir, tu, files)
			}
		}
	}
}
