package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestEachStepReleasesWhatItTookOver checks who holds the files the
// stages hand each other: stage 2 leaves stage 1 no copy of the partial
// manifests it took, the merge takes stage 2's manifests from stage 2 and
// the gate pages, their last reader, let them go, in a run that renders
// pages and in one that does not.
func TestEachStepReleasesWhatItTookOver(t *testing.T) {
	for _, pages := range []bool{false, true} {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		if pages {
			testtree.Add(t, dir, map[string]string{".gatedcrd.yaml": "featureGateDocs:\n  directory: docs/gates\n"})
		}
		r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})
		p := throughStage1(t, r)
		s, err := p.Schemas()
		mustStep(t, r, err)
		for _, m := range p.PartialSchemas.Manifests() {
			t.Errorf("pages=%v: %s: stage 1 still holds a partial manifest stage 2 took", pages, m.Path)
		}
		handed := len(s.SchemaPatch.Files)
		m, err := s.Merge()
		mustStep(t, r, err)
		if s.SchemaPatch.Files != nil || len(m.stage2Files) != handed || handed == 0 {
			t.Errorf("pages=%v: after the merge stage 2 holds %d manifests and the merge %d, want 0 and %d",
				pages, len(s.SchemaPatch.Files), len(m.stage2Files), handed)
		}
		v, err := m.Validate()
		mustStep(t, r, err)
		if _, err := v.GateDocs(); err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		if m.stage2Files != nil {
			t.Errorf("pages=%v: stage 2's manifests outlived their last reader", pages)
		}
		if _, err := os.Stat(filepath.Join(dir, "docs", "gates")); !os.IsNotExist(err) {
			t.Errorf("pages=%v: GateDocs wrote to disk (%v)", pages, err)
		}
		if wrote, _ := r.Tree.Stat(filepath.Join(dir, "docs", "gates")); wrote != pages {
			t.Errorf("pages=%v: pages in the tree: %v", pages, wrote)
		}
	}
}

// TestValidationResult checks that the CRD validation's result is on the
// validated output, and that Options.OnValidated receives it also when its
// findings fail the run.
func TestValidationResult(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})
	var seen []*CRDValidation
	r.Options.OnValidated = func(v *CRDValidation) { seen = append(seen, v) }
	m := throughMerge(t, r)
	v, err := m.Validate()
	mustStep(t, r, err)
	if v.CRDValidation == nil || v.CRDValidation.Result.Files == 0 || len(seen) != 1 || seen[0] != v.CRDValidation {
		t.Fatalf("validated %+v, OnValidated saw %v", v.CRDValidation, seen)
	}

	types := filepath.Join(dir, "widgets", "v1", "types.go")
	data, err := os.ReadFile(types)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "\tName string `json:\"name\"`", "\t// +kubebuilder:validation:XValidation:rule=\"self.matches('[')\"\n\tName string `json:\"name\"`", 1)
	if broken == string(data) {
		t.Fatal("the corpus' Name field moved; adjust the test")
	}
	if err := os.WriteFile(types, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	r = New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})
	seen = nil
	r.Options.OnValidated = func(v *CRDValidation) { seen = append(seen, v) }
	if _, err := throughMerge(t, r).Validate(); !errors.Is(err, ErrInput) {
		t.Fatalf("a rule that does not compile: %v, want ErrInput", err)
	}
	if len(seen) != 1 || seen[0].Result.Findings == 0 {
		t.Fatalf("OnValidated saw %+v, want the failing validation", seen)
	}
}

func throughStage1(t *testing.T, r *Run) *Partials {
	t.Helper()
	d, err := r.Discover()
	mustStep(t, r, err)
	l, err := d.Load()
	mustStep(t, r, err)
	c, err := l.CheckMarkers()
	mustStep(t, r, err)
	p, err := c.PartialManifests()
	mustStep(t, r, err)
	return p
}

func throughMerge(t *testing.T, r *Run) *Merged {
	t.Helper()
	s, err := throughStage1(t, r).Schemas()
	mustStep(t, r, err)
	m, err := s.Merge()
	mustStep(t, r, err)
	return m
}

func mustStep(t *testing.T, r *Run, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v\n%v", err, r.Problems.Err())
	}
}
