package openapiv3

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

const crdYAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.example.io
  annotations:
    release.openshift.io/feature-set: FS
spec:
  group: example.io
  names: {kind: Gizmo, listKind: GizmoList, plural: gizmos, singular: gizmo}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
  - name: v2
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
`

// TestVariantCRDsAndBuild: files are selected by their annotations, a CRD
// selected twice is an error, and only served versions get a document.
func TestVariantCRDsAndBuild(t *testing.T) {
	dir := t.TempDir()
	write := func(name, fs string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Replace(crdYAML, "FS", fs, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a-Default.crd.yaml", "Default")
	write("a-TechPreviewNoUpgrade.crd.yaml", "TechPreviewNoUpgrade")
	def := featuregate.TupleGates{Tuple: featuregate.Tuple{Version: 4, ClusterProfile: featuregate.SelfManagedHA, FeatureSet: featuregate.Default}}
	crds, err := VariantCRDs([]string{dir, filepath.Join(dir, "missing")}, def)
	if err != nil || len(crds) != 1 {
		t.Fatalf("VariantCRDs = %d CRDs, %v; want 1", len(crds), err)
	}
	docs, err := Build(crds)
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 1 || docs[0].Path != "apis/example.io/v1.json" || !strings.Contains(string(docs[0].JSON), `"/apis/example.io/v1/namespaces/{namespace}/gizmos"`) {
		t.Fatalf("documents: %+v", docs)
	}
	write("b-Default.crd.yaml", "Default,OKD")
	if _, err := VariantCRDs([]string{dir}, def); err == nil || !strings.Contains(err.Error(), "CRD gizmos.example.io is also selected from") {
		t.Errorf("a CRD selected twice: error %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "b-Default.crd.yaml")); err != nil {
		t.Fatal(err)
	}
	write("bad-annotation.yaml", "Default,")
	if _, err := VariantCRDs([]string{dir}, def); err == nil || !strings.Contains(err.Error(), "bad-annotation.yaml: annotation release.openshift.io/feature-set") {
		t.Errorf("a malformed annotation: error %v, want it and the file named", err)
	}
	if err := os.Remove(filepath.Join(dir, "bad-annotation.yaml")); err != nil {
		t.Fatal(err)
	}
	write("bad.yaml", "Default\n  unknownField: 1")
	if _, err := VariantCRDs([]string{dir}, def); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("a malformed file: error %v, want it named", err)
	}
}
