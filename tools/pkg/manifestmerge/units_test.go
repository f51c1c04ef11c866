package manifestmerge

import (
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// TestFilePattern covers the file name table (docs/reference-rules.md,
// "Output file names").
func TestFilePattern(t *testing.T) {
	const r, o, n = manifest.FilenameRunLevelAnnotation, manifest.FilenameOperatorAnnotation, manifest.FilenameOrderingAnnotation
	cases := []struct {
		annotations map[string]any
		components  []string
		want        string
	}{
		{map[string]any{r: "0000_50", o: "my-operator", n: "01"}, []string{"Default"}, "0000_50_my-operator_01_widgets-Default.crd.yaml"},
		{map[string]any{o: "config-operator", n: "01"}, []string{"Hypershift", "CustomNoUpgrade"}, "config-operator_01_widgets-Hypershift-CustomNoUpgrade.crd.yaml"},
		{map[string]any{o: "my-operator"}, nil, "my-operator_widgets.crd.yaml"},
		{map[string]any{n: "00"}, nil, "00_widgets.crd.yaml"},
		{map[string]any{r: "0000_50", n: "01"}, nil, "01_widgets.crd.yaml"}, // R without O is ignored
		{map[string]any{r: "0000_50"}, nil, "widgets.crd.yaml"},
		{nil, []string{"4-6", "Default"}, "widgets-4-6-Default.crd.yaml"},
	}
	for _, c := range cases {
		obj := map[string]any{
			"metadata": map[string]any{"annotations": c.annotations},
			"spec":     map[string]any{"names": map[string]any{"plural": "widgets"}},
		}
		p, ok := patternOf(obj)
		if !ok {
			t.Fatalf("%v: no pattern", c.annotations)
		}
		if got := p.name(c.components); got != c.want {
			t.Errorf("%v %v: got %s, want %s", c.annotations, c.components, got, c.want)
		}
	}
	if _, ok := patternOf(map[string]any{"spec": map[string]any{}}); ok {
		t.Error("a CRD without plural got a pattern")
	}
}

// TestPertinence covers the pertinence rules (docs/reference-rules.md,
// "Pertinence") with the "version is in the list"
// reading of the major-version annotation.
func TestPertinence(t *testing.T) {
	tp := featuregate.TupleGates{
		Tuple:     featuregate.Tuple{Version: 5, ClusterProfile: clusterProfiles[0], FeatureSet: featuregate.TechPreviewNoUpgrade},
		GateLists: featuregate.GateLists{Enabled: []featuregate.FeatureGateName{"A", "B"}},
	}
	custom := featuregate.TupleGates{Tuple: featuregate.Tuple{Version: 5, ClusterProfile: clusterProfiles[1], FeatureSet: featuregate.CustomNoUpgrade}}
	cases := []struct {
		name     string
		m        partialManifest
		t        featuregate.TupleGates
		expected bool
	}{
		{"ungated", partialManifest{}, tp, true},
		{"gate on", partialManifest{gates: []string{"A"}}, tp, true},
		{"all gates on", partialManifest{gates: []string{"A", "B"}}, tp, true},
		{"one gate off", partialManifest{gates: []string{"A", "C"}}, tp, false},
		{"custom selects every gate", partialManifest{gates: []string{"C"}}, custom, true},
		{"profile listed", partialManifest{restricted: true, profiles: map[int]bool{0: true}}, tp, true},
		{"other profile listed", partialManifest{restricted: true, profiles: map[int]bool{1: true}}, tp, false},
		{"profile not true", partialManifest{restricted: true, profiles: map[int]bool{}}, tp, false},
		{"custom keeps profile restrictions", partialManifest{restricted: true, profiles: map[int]bool{0: true}}, custom, false},
		{"version in list", partialManifest{versions: map[int]bool{5: true, 6: true}}, tp, true},
		{"version not in list", partialManifest{versions: map[int]bool{6: true}}, tp, false},
		{"custom ignores versions", partialManifest{versions: map[int]bool{6: true}}, custom, true},
	}
	for _, c := range cases {
		if got := c.m.pertinent(c.t); got != c.expected {
			t.Errorf("%s: pertinent = %v", c.name, got)
		}
	}
}

// TestApplicationOrder: ungated first, then single gates, then
// combinations by size; by name within each (docs/decisions.md, "Stage 3 (merge)").
func TestApplicationOrder(t *testing.T) {
	ms := []*partialManifest{
		{name: "Zeta", gates: []string{"Zeta"}},
		{name: "A+B+C", gates: []string{"A", "B", "C"}},
		{name: "A+B", gates: []string{"A", "B"}},
		{name: "AAAFirst", gates: []string{"AAAFirst"}},
		{name: "Alpha", gates: []string{"Alpha"}},
		{name: "AAA_ungated"},
		{name: "A+C", gates: []string{"A", "C"}},
		{name: "Hypershift"}, // an override restricted by profile only
	}
	sortForApplication(ms)
	var names []string
	for _, m := range ms {
		names = append(names, m.name)
	}
	want := "AAA_ungated Hypershift AAAFirst Alpha Zeta A+B A+C A+B+C"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("order = %s, want %s", got, want)
	}
}

func TestCountDocuments(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
	}{
		{"a: 1\n", 1},
		{"---\na: 1\n", 1},
		{"a: 1\n---\n", 1},
		{"a: 1\n---\nb: 2\n", 2},
		{"# only a comment\n", 0},
		{"a: |\n  ---\n  text\n", 1},
		{"a: 1\n--- # comment\n# more\n", 1},
		{"a: 1\n--- b: 2\n", 2},
	} {
		if got := manifest.CountDocuments([]byte(c.in)); got != c.want {
			t.Errorf("manifest.CountDocuments(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestPackageName(t *testing.T) {
	for _, c := range []struct{ group, version, want string }{
		{"example", "v1", "example_v1_crdmanifests"},
		{"my-group.io", "v1alpha1", "my_group_io_v1alpha1_crdmanifests"},
	} {
		got, err := packageName(c.group, c.version)
		if err != nil || got != c.want {
			t.Errorf("packageName(%s, %s) = %s, %v; want %s", c.group, c.version, got, err, c.want)
		}
	}
	if _, err := packageName("1group", "v1"); err == nil {
		t.Error("a group directory starting with a digit was accepted")
	}
}

// TestCleanUp covers the cleanup rules (docs/reference-rules.md,
// "Cleanup") and the stripped output-only annotations.
func TestCleanUp(t *testing.T) {
	obj := map[string]any{
		"status": map[string]any{},
		"metadata": map[string]any{
			"creationTimestamp": nil,
			"managedFields":     []any{},
			"annotations": map[string]any{
				"api.openshift.io/filename-operator":                "op",
				"feature-gate.release.openshift.io/Example":         "true",
				"include.release.openshift.io/ibm-cloud-managed":    "true",
				"partial-filename.release.openshift.io/a.yaml":      "true",
				"release.openshift.io/major-version":                "5",
				"release.openshift.io/feature-set":                  "Default",
				"capability.openshift.io/name":                      "Console",
				"capability.openshift.io/name-":                     "",
				"api.openshift.io/merged-by-featuregates":           "true",
				"release.openshift.io/feature-gate":                 "Example",
				"api-approved.openshift.io":                         "url",
				"unrelated.example.test/only-delete-marker-exists-": "x",
			},
		},
	}
	cleanUp(obj)
	got, err := manifest.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `metadata:
  annotations:
    api-approved.openshift.io: url
    api.openshift.io/merged-by-featuregates: "true"
    release.openshift.io/feature-gate: Example
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestAnnotate covers the annotations of each output file, including a CRD left without
// annotations by "key-" deletions.
func TestAnnotate(t *testing.T) {
	obj := map[string]any{"kind": "CustomResourceDefinition"}
	if err := annotate(obj, outputFile{profiles: []int{0, 1}, versions: []int{4, 5, 6}, featureSets: []string{"CustomNoUpgrade", "Default"}}); err != nil {
		t.Fatal(err)
	}
	got, err := manifest.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := `kind: CustomResourceDefinition
metadata:
  annotations:
    include.release.openshift.io/ibm-cloud-managed: "true"
    include.release.openshift.io/self-managed-high-availability: "true"
    release.openshift.io/feature-set: CustomNoUpgrade,Default
    release.openshift.io/major-version: 4,5,6
`
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestAnnotateFeatureGate covers the release.openshift.io/feature-gate
// annotation of the data: dropped unless the decision keeps it, kept as a
// list of gates, and an error when it is not one.
func TestAnnotateFeatureGate(t *testing.T) {
	withGate := func(value string) map[string]any {
		return map[string]any{"metadata": map[string]any{"annotations": map[string]any{manifest.FeatureGatePassThrough: value}}}
	}
	cases := []struct {
		value   string
		keep    bool
		want    any
		wantErr string
	}{
		{value: "A,B", keep: false, want: nil},
		{value: "A,B", keep: true, want: "A,B"},
		{value: "A, B", keep: true, want: "A,B"},
		{value: "A,,B", keep: true, wantErr: "an empty name"},
		{value: "A,,B", keep: false, want: nil},
	}
	for _, c := range cases {
		obj := withGate(c.value)
		err := annotate(obj, outputFile{keepFeatureGate: c.keep})
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q keep=%v: error %v, want %q", c.value, c.keep, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q keep=%v: %v", c.value, c.keep, err)
			continue
		}
		if got := annotationsOf(obj)[manifest.FeatureGatePassThrough]; got != c.want {
			t.Errorf("%q keep=%v: annotation %v, want %v", c.value, c.keep, got, c.want)
		}
	}
}
