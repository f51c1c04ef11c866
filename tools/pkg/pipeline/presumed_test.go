package pipeline_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// stage2Run runs the pipeline on dir up to stage 2 (and stage 3 when
// stages has it) and returns the run, the paths of the manifests stage 2
// processed, and the number of files it presumed to be stage 3 output.
func stage2Run(t *testing.T, dir string, stages pipeline.Stages) (*pipeline.Run, []string, int) {
	t.Helper()
	r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir, Stages: stages})
	d, err := r.Discover()
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Load()
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.CheckMarkers()
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.PartialManifests()
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Schemas()
	if err != nil {
		t.Fatalf("%v\n%v", err, r.Problems.Err())
	}
	var processed []string
	for _, f := range s.SchemaPatch.Files {
		processed = append(processed, tree(dir, f.Path))
	}
	presumed := len(s.SchemaPatch.Presumed)
	if _, err := s.Merge(); err != nil && stages&pipeline.ManifestMerge != 0 {
		t.Logf("merge: %v", err)
	}
	if s.SchemaPatch.Presumed != nil {
		t.Errorf("the presumed stage 3 outputs were not settled")
	}
	return r, processed, presumed
}

func tree(base, p string) string {
	rel, _ := filepath.Rel(base, p)
	return filepath.ToSlash(rel)
}

// problemsOf returns the problems the run reported about file.
func problemsOf(r *pipeline.Run, file string) []string {
	var out []string
	for _, d := range r.Problems.Items() {
		if d.File == file {
			out = append(out, d.String())
		}
	}
	return out
}

// TestPresumedMergedOutputs: with stage 3 in the same run, stage 2 does
// not parse the merged manifests of stage 3 but presumes them, and the
// outcome is what parsing them gives (as in a run of stage 2 alone, which
// parses every file): up-to-date outputs are skipped, a broken file that
// begins like one still gets its warning, and a hand-written CRD in the
// output directory is still patched.
func TestPresumedMergedOutputs(t *testing.T) {
	const out = "widgets/v1/" + manifest.MergedManifestsDirName + "/"
	const broken = out + "0000_10_widgets_01_widgets-Default.crd.yaml"
	const handWritten = out + "extra.yaml"
	setups := map[string]func(t *testing.T, dir string){
		"up to date": func(*testing.T, string) {},
		"broken output and hand-written CRD": func(t *testing.T, dir string) {
			data, err := os.ReadFile(filepath.Join(dir, broken))
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, broken), string(data)+"status: [\n")
			write(t, filepath.Join(dir, handWritten), "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.widgets.example.openshift.io\nspec:\n  group: widgets.example.openshift.io\n  names:\n    kind: Widget\n  versions:\n  - name: v1\n")
		},
	}
	for name, setup := range setups {
		t.Run(name, func(t *testing.T) {
			dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
			setup(t, dir)
			alone, aloneProcessed, none := stage2Run(t, dir, pipeline.SchemaPatch)
			if none != 0 {
				t.Errorf("stage 2 alone presumed %d files, want none", none)
			}
			all, allProcessed, presumed := stage2Run(t, dir, pipeline.AllStages)
			if presumed == 0 {
				t.Errorf("no stage 3 output was presumed")
			}
			if !slices.Equal(aloneProcessed, allProcessed) {
				t.Errorf("stage 2 processed %v, alone %v", allProcessed, aloneProcessed)
			}
			for _, f := range []string{broken, handWritten} {
				if got, want := problemsOf(all, f), problemsOf(alone, f); !slices.Equal(got, want) {
					t.Errorf("%s: problems %q, stage 2 alone %q", f, got, want)
				}
			}
			if name != "up to date" {
				if got := strings.Join(problemsOf(all, broken), "\n"); !strings.Contains(got, "not a YAML object, so not a CRD manifest; skipped") {
					t.Errorf("%s: got %q, want the warning for a file that is not YAML", broken, got)
				}
				if !slices.Contains(allProcessed, handWritten) {
					t.Errorf("%s was not patched by stage 2: processed %v", handWritten, allProcessed)
				}
			}
		})
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
