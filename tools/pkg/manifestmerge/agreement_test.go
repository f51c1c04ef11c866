package manifestmerge

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/realtrees"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestAnnotationsAgreeWithTheMergeExample runs the stage on the
// repository's example tree and checks that the annotations it writes,
// read back by the decoder every reader uses, select for each tuple
// exactly the CRD the stage merged for it.
func TestAnnotationsAgreeWithTheMergeExample(t *testing.T) {
	checkAgreement(t, filepath.Join("..", "..", ".."))
}

// TestAnnotationsAgreeWithTheMergeRealTrees does the same on the real
// trees of realtrees.Env, skipped without it.
func TestAnnotationsAgreeWithTheMergeRealTrees(t *testing.T) {
	realtrees.Each(t, checkAgreement)
}

// checkAgreement merges the tree at base (read only: the outputs stay in
// memory) and compares, for every CRD and tuple, the CRD merged for the
// tuple with the output files whose decoded annotations cover it. The
// outputs must also be the tree's committed files, so that the check
// speaks for them.
func checkAgreement(t *testing.T, base string) {
	disc, probs, err := discovery.Discover(base, nil)
	if err != nil || probs.HasErrors() {
		t.Fatalf("discovery: %v %v", err, probs.Err())
	}
	dir, err := fgpayload.ReadDir(filepath.Join(disc.BaseDir, "payload-manifests", "featuregates"))
	if err != nil {
		t.Fatal(err)
	}
	pl, err := readPayloadStrict(dir)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []*crdJob
	problems := &diag.List{}
	in := Input{Discovery: disc, Tree: tree.New(), Problems: problems, Payload: dir, inspect: func(js []*crdJob) { jobs = js }}
	if _, err := Run(in); err != nil || problems.HasErrors() {
		t.Fatalf("Run: %v %v", err, problems.Err())
	}
	files := 0
	for _, j := range jobs {
		files += len(j.outputs)
		for _, o := range j.outputs {
			assertCommitted(t, j, o)
		}
		for _, problem := range disagreements(j, pl.tuples) {
			t.Errorf("%s: %s", j.inputs.name, problem)
		}
	}
	if files == 0 {
		t.Fatal("the stage wrote no file")
	}
	t.Logf("%d CRDs, %d files, %d tuples agree", len(jobs), files, len(pl.tuples))
}

// disagreements lists the tuples where the decoded annotations of the
// job's outputs do not select exactly the CRD merged for the tuple.
func disagreements(j *crdJob, tuples []featuregate.TupleGates) []string {
	merged := map[featuregate.Tuple]int{}
	for _, r := range j.records {
		merged[recordTuple(r)] = r.data
	}
	decoded := make([]crdvariant.Annotations, len(j.outputs))
	var out []string
	for i, o := range j.outputs {
		a, err := crdvariant.Decode(stringAnnotations(o.obj))
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", o.name, err)}
		}
		decoded[i] = a
	}
	for _, tu := range tuples {
		var covering []output
		for i, a := range decoded {
			if a.Covers(tu) {
				covering = append(covering, j.outputs[i])
			}
		}
		crd, has := merged[tu.Tuple]
		switch {
		case !has && len(covering) > 0:
			out = append(out, fmt.Sprintf("%s has no CRD, but %s says it is its CRD", tu.Tuple, covering[0].name))
		case has && len(covering) != 1:
			out = append(out, fmt.Sprintf("%s is covered by %d files, want 1", tu.Tuple, len(covering)))
		case has && covering[0].crd != crd:
			out = append(out, fmt.Sprintf("%s is covered by %s, which holds another merged CRD", tu.Tuple, covering[0].name))
		}
	}
	return out
}

// recordTuple is the tuple of a record as the stage builds it, before the
// decision collapses records: one version, profile and feature set.
func recordTuple(r record) featuregate.Tuple {
	return featuregate.Tuple{Version: r.versions[0], ClusterProfile: clusterProfiles[r.profiles[0]], FeatureSet: featuregate.FeatureSetName(r.featureSets[0])}
}

func stringAnnotations(obj map[string]any) map[string]string {
	out := map[string]string{}
	for k, v := range annotationsOf(obj) {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// assertCommitted checks that an output is byte for byte the tree's file.
func assertCommitted(t *testing.T, j *crdJob, o output) {
	t.Helper()
	path := filepath.Join(filepath.Dir(filepath.Dir(j.inputs.dir)), OutputDirName, o.name)
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v", o.name, err)
		return
	}
	if string(committed) != string(o.data) {
		t.Errorf("%s differs from the stage's output", path)
	}
}
