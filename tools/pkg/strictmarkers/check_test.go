package strictmarkers

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

const typesGo = `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Cluster
// +kubebuilder:object:generate=true
// +openshift:compatibility-gen:level=1
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	// +openshift:enable:FeatureGates=Example
	Typo string ` + "`json:\"typo\"`" + `

	// +openshift:validation:featureGate=Example
	NotAMarker string ` + "`json:\"notAMarker\"`" + `

	// +kubebuilder:Required
	Required string ` + "`json:\"required\"`" + `

	// +kubebuilder:Enum=a;b
	Enum string ` + "`json:\"enum\"`" + `

	// +kubebuilder:validation:
	Bare string ` + "`json:\"bare\"`" + `

	// +openshift:enable:FeatureGate=Exampel
	UnknownGate string ` + "`json:\"unknownGate\"`" + `

	// +openshift:validation:FeatureGateAwareEnum:featureGates=Example,enum=a
	BadArgument string ` + "`json:\"badArgument\"`" + `

	// +openshift:enable:FeatureSets=TechPreviewNoUpgrade
	Legacy string ` + "`json:\"legacy\"`" + `

	// +openshift:enable:FeatureGate=Example
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=1
	// +kubebuilder:validation:MaxItems=4
	// +kubebuilder:rbac:groups=example.io,resources=widgets,verbs=get
	Fine []string ` + "`json:\"fine\"`" + `
}
`

func TestCheck(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"v1/types.go": typesGo})
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers/testdata/" + filepath.Base(dir) + "/v1"
	u, err := goload.Load(dir, []string{importPath})
	if err != nil {
		t.Fatal(err)
	}
	var problems diag.List
	Check(Input{Universe: u, KnownGates: []string{"Example", "Example2", "OtherGate"}, PayloadDir: "payload"}, &problems)
	var got []string
	for _, d := range problems.Items() {
		got = append(got, strings.TrimPrefix(d.String(), filepath.Join(dir, "v1")+"/"))
	}
	want := []string{
		"types.go:13: +openshift:enable:FeatureGates=Example: is not a marker any stage understands, so it is silently ignored; did you mean +openshift:enable:FeatureGate?",
		"types.go:16: +openshift:validation:featureGate=Example: is not a marker any stage understands, so it is silently ignored; did you mean +openshift:enable:FeatureGate?",
		"types.go:19: +kubebuilder:Required: is not a marker any stage understands, so it is silently ignored; did you mean +kubebuilder:validation:Required?",
		"types.go:22: +kubebuilder:Enum=a;b: is not a marker any stage understands, so it is silently ignored; did you mean +kubebuilder:validation:Enum?",
		"types.go:25: +kubebuilder:validation:: is an incomplete marker name (it ends with ':'), so it is silently ignored",
		`types.go:28: +openshift:enable:FeatureGate=Exampel: FeatureGate "Exampel" is not listed in the payload FeatureGate manifests (payload), so its content would only ever ship in CustomNoUpgrade; closest known gates: Example, Example2`,
		`types.go:31: +openshift:validation:FeatureGateAwareEnum:featureGates=Example,enum=a: unknown argument "featureGates" of +openshift:validation:FeatureGateAwareEnum (arguments: enum, featureGate, requiredFeatureGate); did you mean featureGate?`,
		"types.go:34: +openshift:enable:FeatureSets=TechPreviewNoUpgrade: legacy FeatureSet markers are not supported; gate the field with +openshift:enable:FeatureGate or use the FeatureGateAware markers",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("findings:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestClosest(t *testing.T) {
	names := []string{"kubebuilder:validation:Pattern", "kubebuilder:validation:Enum", "openshift:enable:FeatureGate"}
	cases := map[string]string{
		"kubebuilder:pattern":           "kubebuilder:validation:Pattern",
		"openshift:enable:FeatureGates": "openshift:enable:FeatureGate",
		"completely:unrelated:thing":    "",
	}
	for in, want := range cases {
		got := closest(in, names, 1)
		if (want == "" && len(got) != 0) || (want != "" && (len(got) == 0 || got[0] != want)) {
			t.Errorf("closest(%q) = %v, want %q", in, got, want)
		}
	}
}
