package manifestmerge

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestUnwritableMergedCRDFailsItsDirectory: a merged CRD the YAML library
// cannot write (a property named "<<", from an override here) is an error
// naming the CRD directory, the CRD gets no files, and nothing of its
// version directory is written.
func TestUnwritableMergedCRDFailsItsDirectory(t *testing.T) {
	const override = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.openshift.io\n" +
		"spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n          spec:\n            properties:\n              \"<<\":\n                type: string\n"
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, nil),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}), []string{"name", "a"}, nil),
		widgetsOverrides + "Key.yaml":     override,
	})
	run := runStage(t, base, discoveryFor(base, exampleGroup), examplePayload())
	got := run.diagnostics()
	want := "error: example/v1/" + FeatureGatedDirName + "/widgets.example.openshift.io: cannot serialise the merged CRD: key \"<<\""
	if !strings.HasPrefix(got, want) || strings.Count(got, "error:") != 1 {
		t.Fatalf("diagnostics:\n%s\nwant one error starting with\n%s", got, want)
	}
	v := run.result.Versions[0]
	if !v.Failed || len(v.CRDs[0].Files) != 0 || len(v.Written) != 0 {
		t.Errorf("failed %v, files %v, written %v; want a failed directory with nothing written", v.Failed, v.CRDs[0].Files, v.Written)
	}
	if _, err := os.Stat(filepath.Join(base, widgetsOutputs)); !os.IsNotExist(err) {
		t.Errorf("the output directory exists (%v)", err)
	}
}

// TestFinishKeepsTheFilesBeforeTheFirstProblem: the files are rendered
// apart, but what is reported is what rendering them in order would
// report: the first file's problem, and the files before it.
func TestFinishKeepsTheFilesBeforeTheFirstProblem(t *testing.T) {
	first := diag.Errorf("widgets", 0, "", "first problem")
	second := diag.Errorf("widgets", 0, "", "second problem")
	list := &diag.List{}
	j := &crdJob{result: &CRDResult{}, rep: &reporter{list: list},
		outputs: []output{{name: "a.crd.yaml"}, {problem: &first}, {name: "c.crd.yaml"}, {problem: &second}}}
	j.finish()
	if !slices.Equal(j.result.Files, []string{"a.crd.yaml"}) || len(j.outputs) != 1 {
		t.Errorf("files %v, %d outputs; want a.crd.yaml alone", j.result.Files, len(j.outputs))
	}
	if items := list.Items(); len(items) != 1 || items[0].Message != "first problem" || !j.rep.failed {
		t.Errorf("reported %v (failed %v), want the first problem alone", items, j.rep.failed)
	}
}

// TestRunLeavesTheHandedManifestsAlone: the merged CRDs share what they
// can with the manifests merged, but cleaning them up and annotating the
// files changes none of those (the steps after the merge read them).
func TestRunLeavesTheHandedManifestsAlone(t *testing.T) {
	files := map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}, fileNameAnnotations...), []string{"name", "a"}, nil),
		widgetsGated + "Example2.yaml":    crdSource(gated([]string{"Example2"}, fileNameAnnotations...), []string{"name", "b"}, nil),
	}
	base := testtree.Write(t, files)
	var handed []*manifest.File
	var before []any
	for rel, content := range files {
		f := manifest.ParseFile(filepath.Join(base, rel), []byte(content))
		handed = append(handed, f)
		before = append(before, deepCopy(f.Object))
	}
	problems := &diag.List{}
	if _, err := Run(Input{Discovery: discoveryFor(base, exampleGroup), Tree: tree.New(), Problems: problems, Payload: examplePayload(), Files: handed}); err != nil || problems.HasErrors() {
		t.Fatalf("Run: %v %v", err, problems.Err())
	}
	for i, f := range handed {
		if !reflect.DeepEqual(any(f.Object), before[i]) {
			t.Errorf("%s changed", f.Path)
		}
	}
}

// TestCleaningUpLeavesLaterMergesAlone: a merged CRD is cleaned up in a
// copy, not in the merge state that longer sequences start from. One
// override removes annotation k ("k-"), one for SelfManagedHA sets k:
// SelfManagedHA, applying both, must not keep k because Hypershift's
// tuples, applying the first alone, were cleaned up before (both profiles
// are one CRD then).
func TestCleaningUpLeavesLaterMergesAlone(t *testing.T) {
	const override = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.openshift.io\n  annotations:\n"
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, nil),
		widgetsOverrides + "A_drop.yaml":  override + "    example.test/k-: \"\"\n",
		widgetsOverrides + "B_set.yaml":   override + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n    example.test/k: v\n",
	})
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	for _, name := range run.result.Versions[0].CRDs[0].Files {
		data, err := os.ReadFile(filepath.Join(base, widgetsOutputs, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "example.test/k") {
			t.Errorf("%s keeps annotation k:\n%s", name, data)
		}
	}
}
