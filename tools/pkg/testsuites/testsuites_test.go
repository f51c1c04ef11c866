package testsuites

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

const partial = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.openshift.io
spec:
  group: example.openshift.io
  names:
    kind: Widget
`

func TestStubsForMissingSuites(t *testing.T) {
	crd := "v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/"
	dir := testtree.Write(t, map[string]string{
		crd + "AAA_ungated.yaml": partial,
		crd + "A.yaml":           partial,
		crd + "A+B.yaml":         partial,
		"v1/tests/widgets.example.openshift.io/A.yaml":  "exists\n",
		"v1/tests/widgets.example.openshift.io/-A.yaml": "extra suites are fine\n",
	})
	disc := &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{{
		Name: "example.openshift.io", Dir: dir,
		Versions: []*discovery.Version{{Group: "example.openshift.io", Version: "v1", Dir: filepath.Join(dir, "v1"), ImportPath: "x/v1"}},
	}}}
	tr := tree.New()
	var problems diag.List
	res, err := Run(Input{Discovery: disc, Tree: tr, Problems: &problems})
	if err != nil {
		t.Fatal(err)
	}
	if res.PartialManifests != 3 || len(res.Missing) != 2 {
		t.Fatalf("result = %+v", res)
	}
	if got := filepath.Base(res.Missing[0]) + " " + filepath.Base(res.Missing[1]); got != "A+B.yaml AAA_ungated.yaml" {
		t.Fatalf("missing = %s", got)
	}
	stub, err := tr.ReadFile(filepath.Join(dir, "v1/tests/widgets.example.openshift.io/A+B.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"crdName: widgets.example.openshift.io\n", "featureGates:\n- A\n- B\n", "apiVersion: example.openshift.io/v1\n        kind: Widget\n"} {
		if !strings.Contains(string(stub), want) {
			t.Errorf("stub lacks %q:\n%s", want, stub)
		}
	}
	ungated, _ := tr.ReadFile(filepath.Join(dir, "v1/tests/widgets.example.openshift.io/AAA_ungated.yaml"))
	if strings.Contains(string(ungated), "featureGates") {
		t.Errorf("ungated stub names gates:\n%s", ungated)
	}
	if items := problems.Items(); len(items) != 0 {
		t.Fatalf("problems = %v", items)
	}
}

// operatorRepo is the operator repository fixture: its suites
// are named <X>.testsuite.yaml after the partial manifests.
const operatorRepo = "../../internal/e2e/testdata/operatorrepo/api"

// TestOperatorSuitesCoverTheirPartialManifests: every partial manifest of
// the fixture has its <X>.testsuite.yaml, so nothing is stubbed; without
// one of them, that one is reported, and its stub takes the directory's
// .testsuite.yaml name. The tree is only read: removals and stubs stay in
// the overlay.
func TestOperatorSuitesCoverTheirPartialManifests(t *testing.T) {
	disc, _, err := discovery.Discover(operatorRepo, nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := tree.New()
	var problems diag.List
	res, err := Run(Input{Discovery: disc, Tree: tr, Problems: &problems})
	if err != nil {
		t.Fatal(err)
	}
	if res.PartialManifests != 5 || len(res.Missing) != 0 || len(problems.Items()) != 0 {
		t.Fatalf("result = %+v, problems = %v; want 5 partial manifests, all covered", res, problems.Items())
	}

	suite := filepath.Join(disc.BaseDir, "fleet/v1beta1/tests/controlplanes.fleet.example.com/BareMetalPlatform.testsuite.yaml")
	tr.Remove(suite)
	res, err = Run(Input{Discovery: disc, Tree: tr, Problems: &problems})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Missing) != 1 || res.Missing[0] != suite {
		t.Fatalf("missing = %q, want only %s", res.Missing, suite)
	}
	stub, err := tr.ReadFile(suite)
	if err != nil || !strings.Contains(string(stub), "featureGates:\n- BareMetalPlatform\n") {
		t.Fatalf("stub (%v):\n%s", err, stub)
	}
}

// TestStubNameFollowsTheNearestSuites: a stub takes the name convention of
// the suites of its CRD, else of its version's other CRDs, else of the
// tree's; a tree without suites, or a directory where .testsuite.yaml is
// not the majority, gets openshift/api's <X>.yaml.
func TestStubNameFollowsTheNearestSuites(t *testing.T) {
	const (
		w = "zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/"
		g = "zz_generated.featuregated-crd-manifests/gadgets.example.openshift.io/"
	)
	dir := testtree.Write(t, map[string]string{
		"v1/" + w + "A.yaml": partial,
		"v1/" + w + "B.yaml": partial,
		"v1/" + g + "A.yaml": partial,
		"v1/tests/widgets.example.openshift.io/B.testsuite.yaml": "covers B\n",
		"v2/" + w + "A.yaml": partial,
		"v3/" + g + "A.yaml": partial,
		"v3/tests/gadgets.example.openshift.io/-A.testsuite.yaml": "one of each\n",
		"v3/tests/gadgets.example.openshift.io/-B.yaml":           "one of each\n",
	})
	var versions []*discovery.Version
	for _, v := range []string{"v1", "v2", "v3"} {
		versions = append(versions, &discovery.Version{Group: "example.openshift.io", Version: v, Dir: filepath.Join(dir, v), ImportPath: "x/" + v})
	}
	disc := &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{{Name: "example.openshift.io", Dir: dir, Versions: versions}}}
	var problems diag.List
	res, err := Run(Input{Discovery: disc, Tree: tree.New(), Problems: &problems})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Missing {
		got = append(got, tree.Rel(dir, m))
	}
	want := []string{
		"v1/tests/gadgets.example.openshift.io/A.testsuite.yaml", // the version's other CRD
		"v1/tests/widgets.example.openshift.io/A.testsuite.yaml", // its own directory
		"v2/tests/widgets.example.openshift.io/A.testsuite.yaml", // the tree's
		"v3/tests/gadgets.example.openshift.io/A.yaml",           // no majority
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("missing:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPartialNameOfASuite(t *testing.T) {
	for name, want := range map[string]string{
		"A+B.yaml":                      "A+B",
		"AAA_ungated.testsuite.yaml":    "AAA_ungated",
		"-Gate.testsuite.yaml":          "-Gate",
		"notes.about.things.yaml":       "notes.about.things",
		"Gate.testsuite.testsuite.yaml": "Gate.testsuite",
	} {
		if got := partialName(name); got != want {
			t.Errorf("partialName(%q) = %q, want %q", name, got, want)
		}
	}
}
