package suite

import (
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// TestNewPlanBatches: one CRD per name in a batch; variants whose CRDs
// have the same spec share one (whatever their metadata), the others go
// to later batches.
func TestNewPlanBatches(t *testing.T) {
	w1 := crdFile(t, "widgets-1.crd.yaml", nil)
	w2 := withSpecField(crdFile(t, "widgets-2.crd.yaml", nil), "colour")
	w3 := withSpecField(crdFile(t, "widgets-3.crd.yaml", nil), "size")
	w4 := crdFile(t, "widgets-4.crd.yaml", map[string]string{featureSet: "TechPreviewNoUpgrade"})
	w5 := withSpecField(crdFile(t, "widgets-5.crd.yaml", nil), "size")
	g1 := crdFile(t, "gadgets-1.crd.yaml", nil)
	a, b := &Suite{Path: "a.yaml"}, &Suite{Path: "b.yaml"}
	plan, err := newPlan([]pairing{
		{suite: b, file: w2, version: "v1"},
		{suite: a, file: w3, version: "v1"},
		{suite: b, file: w1, version: "v1"},
		{suite: a, file: g1, version: "v1"},
		{suite: a, file: w1, version: "v1"},
		{suite: b, file: w4, version: "v1"},
		{suite: b, file: w5, version: "v1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := planShape(plan)
	want := []string{
		"gadgets-1.crd.yaml(a.yaml) widgets-1.crd.yaml(a.yaml,b.yaml) widgets-4.crd.yaml(b.yaml)",
		"widgets-2.crd.yaml(b.yaml)",
		"widgets-3.crd.yaml(a.yaml) widgets-5.crd.yaml(b.yaml)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("batches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if plan.Suites() != 7 {
		t.Errorf("Suites() = %d, want 7", plan.Suites())
	}
	v := plan.Batches[0][1]
	if len(v.CRD.Spec.Versions) != 1 || !v.CRD.Spec.Versions[0].Served || !v.CRD.Spec.Versions[0].Storage {
		t.Errorf("the variant's CRD is not reduced to its version: %+v", v.CRD.Spec.Versions)
	}
}

// withSpecField gives the schema of a CRD file's only version a property,
// so that its spec differs from the other files'.
func withSpecField(f *CRDFile, property string) *CRDFile {
	f.CRD.Spec.Versions[0].Schema = &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
		Type:       "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{property: {Type: "string"}},
	}}
	return f
}

func TestTestName(t *testing.T) {
	f := crdFile(t, "0000_10_widgets-TechPreviewNoUpgrade.crd.yaml", map[string]string{
		selfHA: "true", hypershift: "true", featureSet: "TechPreviewNoUpgrade",
	})
	plan, err := newPlan([]pairing{{suite: suiteWith("Fancy", "-Later"), file: f, version: "v1"}})
	if err != nil {
		t.Fatal(err)
	}
	v := plan.Batches[0][0]
	got := v.TestName(v.Suites[0])
	want := `[suite.gatedcrd.example/v1, Resource=widgets][ClusterProfiles=Hypershift,SelfManagedHA][FeatureSet="TechPreviewNoUpgrade"]` +
		`[FeatureGate=Fancy,-Later][File=0000_10_widgets-TechPreviewNoUpgrade.crd.yaml] s`
	if got != want {
		t.Errorf("TestName\n%s\nwant\n%s", got, want)
	}
	v.File = crdFile(t, "widgets.crd.yaml", nil)
	want = `[suite.gatedcrd.example/v1, Resource=widgets][ClusterProfiles=][FeatureSet=""][FeatureGate=Fancy,-Later][File=widgets.crd.yaml] s`
	if got := v.TestName(v.Suites[0]); got != want {
		t.Errorf("TestName\n%s\nwant\n%s", got, want)
	}
}

func TestSuiteVersion(t *testing.T) {
	v1 := crdFile(t, "v1.crd.yaml", nil)
	v2 := crdFile(t, "v2.crd.yaml", nil)
	v2.CRD.Spec.Versions[0].Name = "v2"
	both := crdFile(t, "both.crd.yaml", nil)
	both.CRD.Spec.Versions = append(both.CRD.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: "v2"})
	withVersion := func(v string) *Suite {
		s := suiteWith()
		s.Version, s.VersionLine = v, 7
		return s
	}
	for _, tc := range []struct {
		name    string
		suite   *Suite
		files   []*CRDFile
		want    string
		wantErr string
	}{
		{name: "the single version", suite: suiteWith(), files: []*CRDFile{v1, v1}, want: "v1"},
		{name: "the version asked for", suite: withVersion("v2"), files: []*CRDFile{both, v2}, want: "v2"},
		{name: "a version a file lacks", suite: withVersion("v2"), files: []*CRDFile{both, v1},
			wantErr: "v1/tests/widgets/s.yaml:7: version v2: v1/zz_generated.crd-manifests/v1.crd.yaml defines only v1"},
		{name: "several versions", suite: suiteWith(), files: []*CRDFile{both},
			wantErr: "v1/tests/widgets/s.yaml:3: v1/zz_generated.crd-manifests/both.crd.yaml defines the versions v1, v2; say which one the suite tests with version:"},
		{name: "files disagree", suite: suiteWith(), files: []*CRDFile{v1, v2},
			wantErr: "v1/tests/widgets/s.yaml:3: the matched CRD files define different versions (v1 and v2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := suiteVersion(tc.suite, tc.files)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("suiteVersion = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
