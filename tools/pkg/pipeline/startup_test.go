package pipeline

import (
	"go/ast"
	"os"
	"path/filepath"

	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestLoadStartsReadingPartialManifests checks the start-up order: when
// stage 1 runs, the reading of its existing partial manifests starts with
// the package load (so it runs while the go command lists the packages)
// and is what stage 1 then uses; without stage 1 nothing is read.
func TestLoadStartsReadingPartialManifests(t *testing.T) {
	for _, stages := range []Stages{AllStages, SchemaPatch | ManifestMerge} {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir, Stages: stages})
		d, err := r.Discover()
		if err != nil {
			t.Fatal(err)
		}
		l, err := d.Load()
		if err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		if started := l.existing != nil; started != (stages&PartialSchemas != 0) {
			t.Errorf("stages %b: reading started with the load: %v", stages, started)
		}
		l.stopReading()
	}
}

// TestStageOneReleasesItsReads checks that the existing partial manifests
// read for stage 1 are let go once it ran, not kept to the end of the run.
func TestStageOneReleasesItsReads(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	p := throughStage1(t, New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir}))
	if p.existing != nil {
		t.Error("stage 1 ran, and the run still holds the partial manifests read for it")
	}
}

// TestStageOneIndexesWithoutBodies checks that stage 1 collects markers
// from syntax without function bodies: strict mode has read the roots'
// comments by then, and walking the bodies of every indexed package
// (generated code, mostly) was a third of the stage's time.
func TestStageOneIndexesWithoutBodies(t *testing.T) {
	dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
	method := "package v1\n\n// Describe names the type.\nfunc (w *Widget) Describe() string {\n\treturn \"widget\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "widgets/v1/describe.go"), []byte(method), 0o644); err != nil {
		t.Fatal(err)
	}
	u := throughStage1(t, New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir})).Universe
	bodies, funcs := 0, 0
	pkgs := append([]*loader.Package{u.Package("k8s.io/apimachinery/pkg/apis/meta/v1")}, u.Roots...)
	for _, pkg := range pkgs {
		for _, f := range pkg.Syntax {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok {
					funcs++
					if fd.Body != nil {
						bodies++
					}
				}
			}
		}
	}
	if funcs == 0 || bodies > 0 {
		t.Errorf("stage 1 ran with %d of %d function bodies in the syntax of the root and metav1", bodies, funcs)
	}
}

// TestDiscoveryStartsTheLoad checks the start-up order: the package load
// starts during discovery, as soon as the selected group-versions are
// known, when a selected stage needs Go, and Load finishes it in one
// go/packages call.
func TestDiscoveryStartsTheLoad(t *testing.T) {
	for _, stages := range []Stages{AllStages, ManifestMerge} {
		dir := testtree.Copy(t, "../../internal/corpus/testdata/base")
		r := New(Options{BaseDir: dir, PayloadDir: DefaultPayloadDir, Stages: stages})
		d, err := r.Discover()
		if err != nil {
			t.Fatal(err)
		}
		if started := r.pending != nil; started != (stages&PartialSchemas != 0) {
			t.Errorf("stages %b: load started by discovery: %v", stages, started)
		}
		l, err := d.Load()
		if err != nil {
			t.Fatalf("%v\n%v", err, r.Problems.Err())
		}
		if r.pending != nil {
			t.Errorf("stages %b: Load left the started load", stages)
		}
		if l.Universe != nil && (l.Universe.Loads() != 1 || len(l.Universe.Roots) != 1) {
			t.Errorf("%d loads, %d roots", l.Universe.Loads(), len(l.Universe.Roots))
		}
		l.stopReading()
	}
}
