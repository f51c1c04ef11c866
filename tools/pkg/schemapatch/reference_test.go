package schemapatch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/internal/realtrees"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// referenceDir holds YAML written by the reference generator
// (realtrees.ReferenceDataEnv); the test skips without it.
func referenceDir(t *testing.T) string {
	t.Helper()
	return realtrees.ReferenceData(t)
}

// referencePartials returns the reference's partial manifests (the files
// stage 2 of the reference completed), by path.
func referencePartials(t *testing.T) map[string][]byte {
	t.Helper()
	dir := referenceDir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "*", "zz_generated.featuregated-crd-manifests", "*", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no partial manifests below %s", dir)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	return out
}

// TestReferenceManifestsRoundTrip: reading a reference manifest and writing
// it the way stage 2 writes manifests gives the same bytes (key order,
// quoting, description folding and literal blocks).
func TestReferenceManifestsRoundTrip(t *testing.T) {
	for path, data := range referencePartials(t) {
		obj, err := manifest.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		out, err := manifest.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(data) {
			t.Errorf("%s: re-serialisation differs:\n%s", path, firstDiff(string(data), string(out)))
		}
	}
}

// TestReferenceSchemasRoundTrip: every reference schema, decoded into the
// type controller-tools generates and converted back the way stage 2
// converts generated schemas, gives the reference bytes. This covers the
// conversion for every construct of the reference example: CEL rules with
// fieldPath, enums holding "", formats, int32 defaults, list-map keys,
// atomic lists and sets, nested objects.
func TestReferenceSchemasRoundTrip(t *testing.T) {
	for path, data := range referencePartials(t) {
		obj, err := manifest.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		raw, ok := lookup(obj, "spec.versions.0.schema.openAPIV3Schema")
		if !ok {
			t.Fatalf("%s has no schema", path)
		}
		encoded, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		var schema apiextensionsv1.JSONSchemaProps
		if err := json.Unmarshal(encoded, &schema); err != nil {
			t.Fatal(err)
		}
		converted, err := schemaToMap(&schema)
		if err != nil {
			t.Fatal(err)
		}
		obj, err = withSchemas(obj, map[string]map[string]any{"v1": converted, "v1alpha1": converted})
		if err != nil {
			t.Fatal(err)
		}
		out, err := manifest.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != string(data) {
			t.Errorf("%s: schema round trip differs:\n%s", path, firstDiff(string(data), string(out)))
		}
	}
}

// TestUpstreamDescriptionsMatchReference: the parts of a generated schema
// that come from Kubernetes' own types (TypeMeta's apiVersion and kind,
// metav1.Condition in a list map, metadata reduced to {type: object}) are
// byte for byte those of the reference.
func TestUpstreamDescriptionsMatchReference(t *testing.T) {
	refPath := filepath.Join(referenceDir(t), "example-v1", "zz_generated.featuregated-crd-manifests",
		"stableconfigtypes.example.openshift.io", "AAA_ungated.yaml")
	partials := referencePartials(t)
	ref, err := manifest.Parse(partials[refPath])
	if err != nil || ref == nil {
		t.Fatalf("reading %s: %v", refPath, err)
	}
	l := load(t, prepare(t, "gates"))
	_, tr := l.mustRun(t)
	ours := parseFile(t, tr, filepath.Join(l.base, widgetDir, "AAA_ungated.yaml"))

	const root = "spec.versions.0.schema.openAPIV3Schema.properties."
	for _, path := range []string{
		"apiVersion",
		"kind",
		"metadata",
		"status.properties.conditions.items",
		"status.properties.conditions.x-kubernetes-list-map-keys",
		"status.properties.conditions.x-kubernetes-list-type",
		"status.properties.conditions.type",
	} {
		want, ok := lookup(ref, root+path)
		if !ok {
			t.Fatalf("reference lacks %s", path)
		}
		got, ok := lookup(ours, root+path)
		if !ok {
			t.Errorf("generated schema lacks %s", path)
			continue
		}
		wantYAML, err := manifest.Marshal(map[string]any{"x": want})
		if err != nil {
			t.Fatal(err)
		}
		gotYAML, err := manifest.Marshal(map[string]any{"x": got})
		if err != nil {
			t.Fatal(err)
		}
		if string(gotYAML) != string(wantYAML) {
			t.Errorf("%s differs from the reference:\n%s", path, firstDiff(string(wantYAML), string(gotYAML)))
		}
	}
}

func firstDiff(want, got string) string {
	wl, gl := splitLines(want), splitLines(got)
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "  want: " + w + "\n  got:  " + g
		}
	}
	return "(lengths differ)"
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
