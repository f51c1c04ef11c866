package suite

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// testPayload has gates Fancy (TechPreviewNoUpgrade), Later (from version 5
// in TechPreviewNoUpgrade), HostedOnly (Hypershift only) and Stable
// (everywhere). Unlisted is missing from the Hypershift TechPreviewNoUpgrade
// manifest, as in a hand-edited payload.
func testPayload() *payload.Directory {
	all := []featuregate.FeatureGateName{"Fancy", "HostedOnly", "Later", "Stable", "Unlisted"}
	manifest := func(file string, p featuregate.ClusterProfileName, fs featuregate.FeatureSetName, versions []int, enabled ...featuregate.FeatureGateName) payload.Manifest {
		m := payload.Manifest{FileName: file, ClusterProfile: p, FeatureSet: fs, Versions: versions, Enabled: enabled}
		for _, g := range all {
			if !strings.Contains(file, "Hypershift-TechPreview") || g != "Unlisted" {
				if !contains(enabled, g) {
					m.Disabled = append(m.Disabled, g)
				}
			}
		}
		return m
	}
	v4to10 := []int{4, 5, 6, 7, 8, 9, 10}
	return &payload.Directory{Path: "payload", Manifests: []payload.Manifest{
		manifest("featureGate-4-10-Hypershift-Default.yaml", featuregate.Hypershift, featuregate.Default, v4to10, "HostedOnly", "Stable"),
		manifest("featureGate-4-10-SelfManagedHA-Default.yaml", featuregate.SelfManagedHA, featuregate.Default, v4to10, "Stable"),
		manifest("featureGate-4-Hypershift-TechPreviewNoUpgrade.yaml", featuregate.Hypershift, featuregate.TechPreviewNoUpgrade, []int{4}, "Fancy", "HostedOnly", "Stable"),
		manifest("featureGate-5-10-Hypershift-TechPreviewNoUpgrade.yaml", featuregate.Hypershift, featuregate.TechPreviewNoUpgrade, v4to10[1:], "Fancy", "HostedOnly", "Later", "Stable"),
		manifest("featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml", featuregate.SelfManagedHA, featuregate.TechPreviewNoUpgrade, []int{4}, "Fancy", "Stable"),
		manifest("featureGate-5-10-SelfManagedHA-TechPreviewNoUpgrade.yaml", featuregate.SelfManagedHA, featuregate.TechPreviewNoUpgrade, v4to10[1:], "Fancy", "Later", "Stable"),
	}}
}

func contains(list []featuregate.FeatureGateName, g featuregate.FeatureGateName) bool {
	for _, x := range list {
		if x == g {
			return true
		}
	}
	return false
}

// crdFile builds a CRD file for widgets.suite.gatedcrd.example (or the
// given name) with the given annotations.
func crdFile(t *testing.T, name string, annotations map[string]string) *CRDFile {
	t.Helper()
	crdName := "widgets.suite.gatedcrd.example"
	if strings.HasPrefix(name, "gadgets") {
		crdName = "gadgets.suite.gatedcrd.example"
	}
	crd := &server.CRD{
		ObjectMeta: metav1.ObjectMeta{Name: crdName, Annotations: annotations},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group:    "suite.gatedcrd.example",
			Names:    apiextensionsv1.CustomResourceDefinitionNames{Plural: strings.Split(crdName, ".")[0], Kind: "Widget"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true}},
		},
	}
	f, err := NewCRDFile(filepath.Join("v1", generatedDir, name), crd)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const (
	hypershift = featuregate.HypershiftAnnotationKey
	selfHA     = featuregate.SelfManagedHAAnnotationKey
	singleNode = featuregate.SingleNodeAnnotationKey
	featureSet = payload.FeatureSetAnnotation
	major      = payload.MajorVersionAnnotation
	// gateAnnotation is release.openshift.io/feature-gate.
	gateAnnotation = crdvariant.FeatureGateAnnotation
)

func testFiles(t *testing.T) []*CRDFile {
	both := func(extra map[string]string) map[string]string {
		a := map[string]string{hypershift: "true", selfHA: "true"}
		for k, v := range extra {
			a[k] = v
		}
		return a
	}
	return []*CRDFile{
		crdFile(t, "widgets-Default.crd.yaml", both(map[string]string{featureSet: "Default"})),
		crdFile(t, "widgets-TechPreviewNoUpgrade.crd.yaml", both(map[string]string{featureSet: "TechPreviewNoUpgrade"})),
		crdFile(t, "widgets-CustomNoUpgrade.crd.yaml", both(map[string]string{featureSet: "CustomNoUpgrade"})),
	}
}

// suiteWith returns a suite of widgets requiring the given gate entries.
func suiteWith(entries ...string) *Suite {
	s := &Suite{Path: "v1/tests/widgets/s.yaml", Name: "s", CRDName: "widgets.suite.gatedcrd.example", CRDNameLine: 3}
	for i, e := range entries {
		g := GateRequirement{Gate: featuregate.FeatureGateName(strings.TrimPrefix(e, "-")), Enabled: !strings.HasPrefix(e, "-"), Line: 5 + i}
		s.FeatureGates = append(s.FeatureGates, g)
	}
	return s
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gates []string
		files []*CRDFile // default testFiles
		want  []string   // base names of the files the suite runs against
	}{
		{name: "no gates: every file", want: []string{"widgets-Default.crd.yaml", "widgets-TechPreviewNoUpgrade.crd.yaml", "widgets-CustomNoUpgrade.crd.yaml"}},
		{name: "enabled gate", gates: []string{"Fancy"}, want: []string{"widgets-TechPreviewNoUpgrade.crd.yaml", "widgets-CustomNoUpgrade.crd.yaml"}},
		{name: "disabled gate: never CustomNoUpgrade", gates: []string{"-Fancy"}, want: []string{"widgets-Default.crd.yaml"}},
		{name: "gate enabled everywhere", gates: []string{"Stable"}, want: []string{"widgets-Default.crd.yaml", "widgets-TechPreviewNoUpgrade.crd.yaml", "widgets-CustomNoUpgrade.crd.yaml"}},
		{name: "enabled and disabled gates", gates: []string{"Stable", "-Fancy"}, want: []string{"widgets-Default.crd.yaml"}},
		{
			name:  "CustomNoUpgrade among several feature sets",
			gates: []string{"Fancy"},
			files: []*CRDFile{crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", featureSet: "CustomNoUpgrade,TechPreviewNoUpgrade"})},
			want:  []string{"widgets.crd.yaml"},
		},
		{
			name:  "a file without a profile annotation runs even a suite needing gates disabled",
			gates: []string{"-Fancy", "-Stable"},
			files: []*CRDFile{
				crdFile(t, "widgets.crd.yaml", map[string]string{featureSet: "TechPreviewNoUpgrade", hypershift: "false"}),
				crdFile(t, "widgets-Default.crd.yaml", map[string]string{selfHA: "true"}),
			},
			want: []string{"widgets.crd.yaml"},
		},
		{
			name:  "no feature-set annotation means Default",
			gates: []string{"-Fancy"},
			files: []*CRDFile{crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true"})},
			want:  []string{"widgets.crd.yaml"},
		},
		{
			name:  "without a feature-set annotation, the feature-gate annotation picks where its gates are on",
			gates: []string{"Fancy"},
			files: []*CRDFile{crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", gateAnnotation: "Fancy"})},
			want:  []string{"widgets.crd.yaml"},
		},
		{
			name:  "the feature-gate annotation yields to a feature-set annotation",
			gates: []string{"Fancy"},
			files: []*CRDFile{
				crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", gateAnnotation: "Fancy", featureSet: "Default"}),
				crdFile(t, "widgets-TechPreviewNoUpgrade.crd.yaml", map[string]string{selfHA: "true", featureSet: "TechPreviewNoUpgrade"}),
			},
			want: []string{"widgets-TechPreviewNoUpgrade.crd.yaml"},
		},
		{
			name:  "a file whose gates are on nowhere is CustomNoUpgrade's",
			gates: []string{"Stable"},
			files: []*CRDFile{
				crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", gateAnnotation: "Unlisted"}),
				crdFile(t, "widgets-Default.crd.yaml", map[string]string{selfHA: "true", featureSet: "Default"}),
			},
			want: []string{"widgets.crd.yaml", "widgets-Default.crd.yaml"},
		},
		{
			name:  "a CustomNoUpgrade-only file does not run a suite needing a gate disabled",
			gates: []string{"-Fancy"},
			files: []*CRDFile{
				crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", gateAnnotation: "Unlisted"}),
				crdFile(t, "widgets-Default.crd.yaml", map[string]string{selfHA: "true", featureSet: "Default"}),
			},
			want: []string{"widgets-Default.crd.yaml"},
		},
		{
			name:  "profile-restricted files",
			gates: []string{"HostedOnly"},
			files: []*CRDFile{
				crdFile(t, "widgets-Hypershift.crd.yaml", map[string]string{hypershift: "true", featureSet: "Default"}),
				crdFile(t, "widgets-SelfManagedHA.crd.yaml", map[string]string{selfHA: "true", featureSet: "Default"}),
			},
			want: []string{"widgets-Hypershift.crd.yaml"},
		},
		{
			name:  "the first profile by annotation key decides for a file of both",
			gates: []string{"HostedOnly"},
			files: []*CRDFile{crdFile(t, "widgets.crd.yaml", map[string]string{selfHA: "true", hypershift: "true", featureSet: "Default"})},
			want:  []string{"widgets.crd.yaml"},
		},
		{
			name:  "version-split files, gate enabled from version 5",
			gates: []string{"Later"},
			files: []*CRDFile{
				crdFile(t, "widgets-4-TechPreviewNoUpgrade.crd.yaml", map[string]string{selfHA: "true", featureSet: "TechPreviewNoUpgrade", major: "4"}),
				crdFile(t, "widgets-5-10-TechPreviewNoUpgrade.crd.yaml", map[string]string{selfHA: "true", featureSet: "TechPreviewNoUpgrade", major: "5,6,7,8,9,10"}),
			},
			want: []string{"widgets-5-10-TechPreviewNoUpgrade.crd.yaml"},
		},
		{
			name:  "version-split files, gate disabled until version 5",
			gates: []string{"-Later"},
			files: []*CRDFile{
				crdFile(t, "widgets-4-TechPreviewNoUpgrade.crd.yaml", map[string]string{selfHA: "true", featureSet: "TechPreviewNoUpgrade", major: "4"}),
				crdFile(t, "widgets-5-10-TechPreviewNoUpgrade.crd.yaml", map[string]string{selfHA: "true", featureSet: "TechPreviewNoUpgrade", major: "5,6,7,8,9,10"}),
			},
			want: []string{"widgets-4-TechPreviewNoUpgrade.crd.yaml"},
		},
		{
			name:  "other CRDs are not considered",
			files: []*CRDFile{crdFile(t, "gadgets.crd.yaml", nil), crdFile(t, "widgets.crd.yaml", nil)},
			want:  []string{"widgets.crd.yaml"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = testFiles(t)
			}
			decisions, err := Match(suiteWith(tc.gates...), files, testPayload())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range decisions {
				if d.Run {
					got = append(got, filepath.Base(d.File.Path))
				}
				if d.Reason == "" {
					t.Errorf("%s: decision without a reason", d.File.Path)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("runs against %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMatchErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gates []string
		files []*CRDFile // default testFiles
		want  []string
	}{
		{
			name:  "gate no payload manifest names",
			gates: []string{"Stable", "Fnacy"},
			want:  []string{"v1/tests/widgets/s.yaml:6: unknown FeatureGate Fnacy: no payload FeatureGate manifest in payload names it"},
		},
		{
			name:  "gate missing from the deciding payload manifest",
			gates: []string{"Unlisted"},
			files: []*CRDFile{crdFile(t, "widgets-TechPreviewNoUpgrade.crd.yaml", map[string]string{hypershift: "true", featureSet: "TechPreviewNoUpgrade"})},
			want: []string{"v1/tests/widgets/s.yaml:5: FeatureGate Unlisted is neither enabled nor disabled in payload manifest " +
				"featureGate-4-Hypershift-TechPreviewNoUpgrade.yaml, which decides for v1/zz_generated.crd-manifests/widgets-TechPreviewNoUpgrade.crd.yaml"},
		},
		{
			name:  "no file matches",
			gates: []string{"Fancy", "-Stable"},
			want: []string{
				"v1/tests/widgets/s.yaml:3: the suite (featureGates Fancy,-Stable) runs against none of the 3 CRD files of widgets.suite.gatedcrd.example:",
				"\twidgets-Default.crd.yaml: Fancy is disabled in featureGate-4-10-Hypershift-Default.yaml",
				"\twidgets-TechPreviewNoUpgrade.crd.yaml: Stable is enabled in featureGate-4-Hypershift-TechPreviewNoUpgrade.yaml",
				"\twidgets-CustomNoUpgrade.crd.yaml: CustomNoUpgrade may enable any gate, and the suite needs some disabled",
			},
		},
		{
			name:  "no file of the CRD",
			files: []*CRDFile{crdFile(t, "gadgets.crd.yaml", nil)},
			want:  []string{"v1/tests/widgets/s.yaml:3: no generated CRD file defines widgets.suite.gatedcrd.example"},
		},
		{
			name:  "no payload manifest for the file's profile",
			gates: []string{"Fancy"},
			files: []*CRDFile{crdFile(t, "widgets-SingleNode.crd.yaml", map[string]string{singleNode: "true"})},
			want: []string{"v1/tests/widgets/s.yaml:3: no payload FeatureGate manifest in payload for ClusterProfile SingleNode, any feature set, " +
				"any major version, which v1/zz_generated.crd-manifests/widgets-SingleNode.crd.yaml applies to"},
		},
		{
			name:  "no payload manifest for the file's versions",
			gates: []string{"Fancy"},
			files: []*CRDFile{crdFile(t, "widgets-11.crd.yaml", map[string]string{selfHA: "true", major: "11"})},
			want:  []string{"for ClusterProfile SelfManagedHA, any feature set, major versions 11, which"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := tc.files
			if files == nil {
				files = testFiles(t)
			}
			decisions, err := Match(suiteWith(tc.gates...), files, testPayload())
			if err == nil {
				t.Fatalf("no error; decisions %+v", decisions)
			}
			for _, want := range tc.want {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error\n%s\ndoes not contain\n%s", err, want)
				}
			}
		})
	}
}

func TestNewCRDFile(t *testing.T) {
	f := crdFile(t, "x.crd.yaml", map[string]string{
		selfHA: "true", hypershift: "true", singleNode: "false",
		"include.release.openshift.io/some-other": "true",
		featureSet: "CustomNoUpgrade,TechPreviewNoUpgrade", major: "4,5",
	})
	if got := f.profileList(); got != "Hypershift,SelfManagedHA" {
		t.Errorf("profiles %q", got)
	}
	if got := f.featureSetList(); got != "CustomNoUpgrade,TechPreviewNoUpgrade" {
		t.Errorf("feature sets %q", got)
	}
	if !slices.Equal(f.Variants.Versions, []int{4, 5}) {
		t.Errorf("major versions %v", f.Variants.Versions)
	}
	crd := f.CRD.DeepCopy()
	crd.Annotations = map[string]string{major: "4-6"}
	if _, err := NewCRDFile("y.crd.yaml", crd); err == nil || !strings.Contains(err.Error(), `y.crd.yaml: annotation release.openshift.io/major-version="4-6": "4-6" is not a positive integer`) {
		t.Errorf("error %v", err)
	}
}
