package testsuites

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
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
