package manifestmerge

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// FuzzOverride merges an arbitrary manual override into a fixed CRD. The
// whole run happens in the overlay tree (nothing on disk): it must report
// problems or produce output, never panic, and do the same twice.
func FuzzOverride(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.openshift.io\nspec:\n  versions:\n  - name: v1\n    subresources:\n      scale:\n        specReplicasPath: .spec.replicas\n        statusReplicasPath: .status.replicas\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    feature-gate.release.openshift.io/Example: \"true\"\n    include.release.openshift.io/self-managed-high-availability: \"true\"\n    release.openshift.io/major-version: \"5,6\"\n    foo-: \"\"\n  name: widgets.example.openshift.io\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.openshift.io\nspec:\n  names:\n    shortNames: [w]\n  unknownField: 1\n",
		"kind: [\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	base := filepath.Join(f.TempDir(), "api")
	generated := map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}, fileNameAnnotations...), []string{"name", "coolNewField"}, nil),
	}
	disc := discoveryFor(base, exampleGroup)
	payload := examplePayload()
	run := func(override []byte) ([]tree.Change, []diag.Diagnostic) {
		tr := tree.New()
		for rel, content := range generated {
			tr.WriteFile(filepath.Join(base, rel), []byte(content))
		}
		tr.WriteFile(filepath.Join(base, "example/v1/manual-override-crd-manifests/widgets.example.openshift.io/Fuzz.yaml"), override)
		problems := &diag.List{}
		if _, err := Run(Input{Discovery: disc, Tree: tr, Problems: problems, Payload: payload}); err != nil {
			problems.AddError(err)
		}
		changes, _, err := tr.Changes()
		if err != nil {
			t := problems
			t.AddError(err)
		}
		return changes, problems.Items()
	}
	f.Fuzz(func(t *testing.T, override []byte) {
		c1, d1 := run(override)
		c2, d2 := run(override)
		if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(d1, d2) {
			t.Fatalf("two runs on the same override differ")
		}
	})
}
