package manifestmerge

import (
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// TestOutputDirectoryCleanup: stale entries of the output directory are
// removed, doc.go and expected outputs are kept.
func TestOutputDirectoryCleanup(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml":            ungatedWidget,
		widgetsOutputs + "/widgets-Default.crd.yaml": "stale\n",
		widgetsOutputs + "/notes.txt":                "stale\n",
		widgetsOutputs + "/doc.go":                   "package old\n",
	})
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	snap := testtree.Snapshot(t, filepath.Join(base, widgetsOutputs))
	if got := strings.Join(testtree.Paths(snap), " "); got != "doc.go widgets.crd.yaml" {
		t.Errorf("outputs = %s", got)
	}
	if snap["doc.go"] != "package example_v1_crdmanifests\n" {
		t.Errorf("doc.go = %q", snap["doc.go"])
	}
	v := run.result.Versions[0]
	var removed []string
	for _, p := range v.Removed {
		removed = append(removed, filepath.Base(p))
	}
	if strings.Join(removed, " ") != "notes.txt widgets-Default.crd.yaml" {
		t.Errorf("removed = %v", removed)
	}
	if len(v.Written) != 2 || filepath.Base(v.Written[0]) != "widgets.crd.yaml" || filepath.Base(v.Written[1]) != "doc.go" {
		t.Errorf("written = %v", v.Written)
	}
}

// TestFailedVersionDirectoryIsLeftAlone: an error in one version directory
// keeps its outputs (stale ones included) and does not stop the others.
func TestFailedVersionDirectoryIsLeftAlone(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml":  ungatedWidget,
		widgetsGated + "Broken.yaml":       "kind: [\n",
		widgetsOutputs + "/stale.crd.yaml": "stale\n",
		"example/v2/" + FeatureGatedDirName + "/widgets.example.openshift.io/AAA_ungated.yaml": strings.ReplaceAll(ungatedWidget, "name: v1", "name: v2"),
	})
	group := fixtureGroup{dir: "example", name: "example.openshift.io", versions: []string{"v1", "v2"}}
	tr := tree.New()
	problems := &diag.List{}
	res, err := Run(Input{Discovery: discoveryFor(base, group), Tree: tr, Problems: problems, Payload: examplePayload()})
	if err != nil {
		t.Fatal(err)
	}
	if !problems.HasErrors() {
		t.Fatal("no error reported for Broken.yaml")
	}
	changes, _, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range changes {
		paths = append(paths, c.Kind.String()+" "+tree.Rel(base, c.Path))
	}
	want := "create example/v2/zz_generated.crd-manifests/doc.go create example/v2/zz_generated.crd-manifests/widgets.crd.yaml"
	if strings.Join(paths, " ") != want {
		t.Errorf("changes = %v\nwant %s", paths, want)
	}
	if !res.Versions[0].Failed || res.Versions[1].Failed {
		t.Errorf("failed flags = %v, %v", res.Versions[0].Failed, res.Versions[1].Failed)
	}
}

// TestWhichDirectoriesAreProcessed: groups with manifestMerge disabled and
// version directories without featuregated manifests are left alone;
// doc.go package names are sanitised.
func TestWhichDirectoriesAreProcessed(t *testing.T) {
	gadget := strings.ReplaceAll(ungatedWidget, "widget", "gadget")
	base := testtree.Write(t, map[string]string{
		"my-group.io/v1/" + FeatureGatedDirName + "/widgets.example.openshift.io/AAA_ungated.yaml": ungatedWidget,
		"disabled/v1/" + FeatureGatedDirName + "/gadgets.example.openshift.io/AAA_ungated.yaml":    gadget,
		"plain/v1/" + OutputDirName + "/hand-written.crd.yaml":                                     "kept\n",
		"plain/v1/types.go": "package v1\n",
	})
	disc := discoveryFor(base,
		fixtureGroup{dir: "my-group.io", name: "example.openshift.io", versions: []string{"v1"}},
		fixtureGroup{dir: "disabled", name: "disabled.example.openshift.io", versions: []string{"v1"}, disabled: true},
		fixtureGroup{dir: "plain", name: "plain.example.openshift.io", versions: []string{"v1"}},
	)
	run := mustRun(t, base, disc, examplePayload())
	var files []string
	for p, content := range testtree.Snapshot(t, base) {
		if strings.Contains(p, OutputDirName) {
			files = append(files, p+": "+strings.SplitN(content, "\n", 2)[0])
		}
	}
	sort.Strings(files)
	got := strings.Join(files, "\n")
	want := "my-group.io/v1/zz_generated.crd-manifests/doc.go: package my_group_io_v1_crdmanifests\n" +
		"my-group.io/v1/zz_generated.crd-manifests/widgets.crd.yaml: apiVersion: apiextensions.k8s.io/v1\n" +
		"plain/v1/zz_generated.crd-manifests/hand-written.crd.yaml: kept"
	if got != want {
		t.Errorf("output files:\n%s\nwant:\n%s", got, want)
	}
	if len(run.result.Versions) != 1 || filepath.Base(filepath.Dir(run.result.Versions[0].Dir)) != "my-group.io" {
		t.Errorf("processed version directories: %+v", run.result.Versions)
	}
}

// TestFeatureGatedPathIsAFile reports a file where the featuregated
// directory belongs.
func TestFeatureGatedPathIsAFile(t *testing.T) {
	base := testtree.Write(t, map[string]string{"example/v1/" + FeatureGatedDirName: "oops\n"})
	run := runStage(t, base, discoveryFor(base, exampleGroup), examplePayload())
	want := "error: example/v1/zz_generated.featuregated-crd-manifests: is a file; expected a directory of CRD directories"
	if got := run.diagnostics(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestReadsThroughTheTree: manifests an earlier stage wrote in the same run
// (only in the tree, not on disk) are merged, and outputs stay in the tree.
func TestReadsThroughTheTree(t *testing.T) {
	base := testtree.Write(t, map[string]string{"example/v1/doc.go": "package v1\n"})
	tr := tree.New()
	tr.WriteFile(filepath.Join(base, widgetsGated, "AAA_ungated.yaml"), []byte(ungatedWidget))
	problems := &diag.List{}
	if _, err := Run(Input{Discovery: discoveryFor(base, exampleGroup), Tree: tr, Problems: problems, Payload: examplePayload()}); err != nil || problems.HasErrors() {
		t.Fatalf("Run: %v %v", err, problems.Err())
	}
	if _, err := os.Stat(filepath.Join(base, widgetsOutputs)); err == nil {
		t.Error("Run wrote to disk")
	}
	data, err := tr.ReadFile(filepath.Join(base, widgetsOutputs, "widgets.crd.yaml"))
	if err != nil || !strings.Contains(string(data), "merged-by-featuregates") {
		t.Errorf("output not in the tree: %v %q", err, data)
	}
}

// TestDeterministic: the order of the payload files and the scheduling of
// the parallel merges do not change any byte of the output.
func TestDeterministic(t *testing.T) {
	requireReference(t)
	var first map[string]string
	for i := 0; i < 5; i++ {
		base := referenceFixture(t)
		payload := examplePayload()
		m := payload.Manifests
		rand.New(rand.NewSource(int64(i))).Shuffle(len(m), func(a, b int) { m[a], m[b] = m[b], m[a] })
		mustRun(t, base, discoveryFor(base, referenceGroup), payload)
		snap := testtree.Snapshot(t, filepath.Join(base, "example"))
		if first == nil {
			first = snap
			continue
		}
		for _, p := range testtree.Paths(first) {
			if snap[p] != first[p] {
				t.Errorf("run %d: %s differs", i, p)
			}
		}
		if len(snap) != len(first) {
			t.Errorf("run %d: %d files, first run %d", i, len(snap), len(first))
		}
	}
}

// TestRunWithoutProblemsList returns input errors as the error result.
func TestRunWithoutProblemsList(t *testing.T) {
	base := testtree.Write(t, map[string]string{widgetsGated + "Broken.yaml": "kind: [\n"})
	_, err := Run(Input{Discovery: discoveryFor(base, exampleGroup), Tree: tree.New(), Payload: examplePayload()})
	if err == nil || !strings.Contains(err.Error(), "Broken.yaml:1: invalid YAML") {
		t.Errorf("error = %v", err)
	}
	if _, err := Run(Input{}); err == nil {
		t.Error("Run accepted an empty Input")
	}
}

// TestLeftoversOfOlderGenerators: creationTimestamp: null and an empty
// status, as older controller-gen versions wrote them, do not reach the
// output.
func TestLeftoversOfOlderGenerators(t *testing.T) {
	src := strings.Replace(ungatedWidget, "  name: widgets.example.openshift.io\n", "  creationTimestamp: null\n  name: widgets.example.openshift.io\n", 1) +
		"status:\n  acceptedNames:\n    kind: \"\"\n    plural: \"\"\n  conditions: []\n  storedVersions: []\n"
	base := testtree.Write(t, map[string]string{widgetsGated + "AAA_ungated.yaml": src})
	mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	data, err := os.ReadFile(filepath.Join(base, widgetsOutputs, "widgets.crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "creationTimestamp") || strings.Contains(string(data), "status:\n") || strings.Contains(string(data), "storedVersions") {
		t.Errorf("leftovers in the output:\n%s", data)
	}
}
