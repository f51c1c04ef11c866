package pipeline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// TestHandOver checks what the stages hand each other in one process:
// every manifest stage 1 hands to stage 2 and stage 2 hands to stage 3
// carries an object that is exactly what parsing its bytes gives (the
// guarantee that lets the next stage skip the parse, so the output cannot
// change), the bytes stage 2 and the merge hand on are the tree's own
// (one copy of each file), and the merge left stage 2's untouched (checked
// after the merge ran). Both with the generated files in place (stage 1 keeps them,
// schemas and all) and without (stage 1 writes them).
func TestHandOver(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		if fresh {
			if err := os.RemoveAll(filepath.Join(dir, "widgets/v1", manifest.PartialManifestsDirName)); err != nil {
				t.Fatal(err)
			}
		}
		r := pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir})
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%v\n%v", err, r.Problems.Err())
			}
		}
		d, err := r.Discover()
		must(err)
		l, err := d.Load()
		must(err)
		c, err := l.CheckMarkers()
		must(err)
		p, err := c.PartialManifests()
		must(err)
		partials := p.PartialSchemas.Manifests()
		if len(partials) != 3 {
			t.Fatalf("fresh=%v: stage 1 handed on %d manifests, want 3", fresh, len(partials))
		}
		for _, m := range partials {
			if want := map[bool]partialschemas.Action{false: partialschemas.Unchanged, true: partialschemas.Written}[fresh]; m.Action != want {
				t.Errorf("%s: stage 1 %s it, want %s", m.Path, m.Action, want)
			}
			checkParsed(t, m.File())
		}
		s, err := p.Schemas()
		must(err)
		files := s.SchemaPatch.Files
		if len(files) != 4 { // the three partial manifests and the override
			t.Fatalf("fresh=%v: stage 2 handed on %d manifests, want 4", fresh, len(files))
		}
		m, err := s.Merge()
		must(err)
		for _, f := range files {
			checkParsed(t, f)
			sameBytes(t, r, f.Path, f.Data, "stage 2")
		}
		outputs := m.ManifestMerge.Outputs()
		if len(outputs) == 0 {
			t.Fatalf("fresh=%v: the merge handed on no outputs", fresh)
		}
		for _, o := range outputs {
			sameBytes(t, r, o.Path, o.Data, "the merge")
		}
	}
}

// sameBytes checks that data, handed on by a stage for path, is the tree's
// own copy of the file (not a second one, which would double what a run
// keeps live).
func sameBytes(t *testing.T, r *pipeline.Run, path string, data []byte, stage string) {
	t.Helper()
	held, err := r.Tree.ReadFile(path)
	if err != nil || !bytes.Equal(held, data) {
		t.Errorf("%s: %s handed on other bytes than the tree holds (%v)", path, stage, err)
	} else if len(data) > 0 && &held[0] != &data[0] {
		t.Errorf("%s: %s handed on a copy of the bytes the tree holds", path, stage)
	}
}

func checkParsed(t *testing.T, f *manifest.File) {
	t.Helper()
	parsed, err := manifest.Parse(f.Data)
	if err != nil || !reflect.DeepEqual(parsed, f.Object) {
		t.Errorf("%s: the handed-on object is not what parsing its bytes gives (%v)", f.Path, err)
	}
}
