package manifestmerge

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/realtrees"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// referenceDir is the reference generator's output
// (realtrees.ReferenceDataEnv); the test skips without it.
func referenceDir(t *testing.T) string {
	t.Helper()
	return realtrees.ReferenceData(t)
}

// requireReference skips the test without the reference's output.
func requireReference(t *testing.T) {
	t.Helper()
	referenceDir(t)
}

// referenceFixture copies the reference's partial manifests of the example
// group into a fresh tree, with a payload directory rendered for the example's
// gates (docs/reference-rules.md, "The example group"), and returns the tree's base directory.
func referenceFixture(t *testing.T) string {
	t.Helper()
	files := map[string]string{}
	for _, v := range []string{"v1", "v1alpha1"} {
		src := filepath.Join(referenceDir(t), "example-"+v, FeatureGatedDirName)
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			files["example/"+v+"/"+FeatureGatedDirName+"/"+filepath.ToSlash(rel)] = string(data)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	renderPayloadFiles(files, "payload")
	return testtree.Write(t, files)
}

var referenceGroup = fixtureGroup{dir: "example", name: "example.openshift.io", versions: []string{"v1", "v1alpha1"}}

// assertReferenceOutputs compares the output directories of the fixture
// with the reference's, byte for byte, both ways.
func assertReferenceOutputs(t *testing.T, base string) {
	t.Helper()
	for _, v := range []string{"v1", "v1alpha1"} {
		got := testtree.Snapshot(t, filepath.Join(base, "example", v, OutputDirName))
		want := testtree.Snapshot(t, filepath.Join(referenceDir(t), "example-"+v, OutputDirName))
		want[DocFileName] = "package example_" + v + "_crdmanifests\n"
		for _, name := range testtree.Paths(want) {
			if _, ok := got[name]; !ok {
				t.Errorf("%s: missing %s", v, name)
			} else if got[name] != want[name] {
				t.Errorf("%s: %s differs from the reference:\n%s", v, name, testtree.FirstDifference(want[name], got[name]))
			}
		}
		for _, name := range testtree.Paths(got) {
			if _, ok := want[name]; !ok {
				t.Errorf("%s: unexpected output %s", v, name)
			}
		}
	}
}

// TestReferenceOutputsByteForByte feeds the reference's partial manifests
// through the stage with a payload rendered for the example's gates and expects the
// reference's merged manifests exactly.
func TestReferenceOutputsByteForByte(t *testing.T) {
	requireReference(t)
	base := referenceFixture(t)
	payload := loadPayloadDir(t, filepath.Join(base, "payload"))
	if len(payload.Manifests) != 8 {
		t.Fatalf("fixture payload has %d files, want 2 profiles x 4 feature sets", len(payload.Manifests))
	}
	run := mustRun(t, base, discoveryFor(base, referenceGroup), payload)
	assertReferenceOutputs(t, base)

	// The example in numbers: 7 versions x 2 profiles x 5 feature sets.
	v1 := run.result.Versions[0].CRDs[0]
	if v1.Tuples != 70 || v1.TuplesWithData != 70 || v1.InputSets != 3 || v1.Applies != 3 {
		t.Errorf("v1 counters = %+v; want 70 tuples with data, 3 input sets, 3 applies", *v1)
	}
	v1alpha1 := run.result.Versions[1].CRDs[0]
	if v1alpha1.Tuples != 70 || v1alpha1.TuplesWithData != 42 || v1alpha1.InputSets != 1 || v1alpha1.Applies != 1 {
		t.Errorf("v1alpha1 counters = %+v; want 42 tuples with data (TP, DP, Custom), 1 input set, 1 apply", *v1alpha1)
	}
	want := Totals{VersionDirs: 2, CRDs: 2, Tuples: 140, TuplesWithData: 112, InputSets: 4, Applies: 4, Files: 6}
	if got := run.result.Totals(); got != want {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
	if run.problems.Items() != nil {
		t.Errorf("unexpected diagnostics:\n%s", run.diagnostics())
	}
}

// TestReferencePayloadDirectory reads the reference's real payload
// directory (a large registry where Example and Example2 are on as in the
// example) and expects the same outputs.
func TestReferencePayloadDirectory(t *testing.T) {
	requireReference(t)
	base := referenceFixture(t)
	payload := loadPayloadDir(t, filepath.Join(referenceDir(t), "payload-featuregates"))
	mustRun(t, base, discoveryFor(base, referenceGroup), payload)
	assertReferenceOutputs(t, base)
}

// TestReferenceVerifyIsClean runs the stage a second time over its own
// outputs: the tree must hold no change, so --verify passes.
func TestReferenceVerifyIsClean(t *testing.T) {
	requireReference(t)
	base := referenceFixture(t)
	disc := discoveryFor(base, referenceGroup)
	mustRun(t, base, disc, examplePayload())
	tr := tree.New()
	problems := &diag.List{}
	if _, err := Run(Input{Discovery: disc, Tree: tr, Problems: problems, Payload: examplePayload()}); err != nil || problems.HasErrors() {
		t.Fatalf("second run: %v %v", err, problems.Err())
	}
	changes, _, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("second run changes the tree:\n%v", changes)
	}
}
