package strictmarkers

import (
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
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
	dir, u := loadTypes(t)
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

func TestSuggestMarker(t *testing.T) {
	reg, err := goload.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	names := definitionNames(reg)
	cases := map[string]string{
		// The last segment is the first argument, not part of the name.
		"openshift:validation:FeatureGateAwareEnums:featureGate":  "openshift:validation:FeatureGateAwareEnum",
		"openshift:FeatureGateAwareMaxItems:featureGate":          "openshift:validation:FeatureGateAwareMaxItems",
		"openshift:validation:FeatureGateAwareXvalidation:rule":   "openshift:validation:FeatureGateAwareXValidation",
		"kubebuilder:validation:FeatureGateAwareEnum:featureGate": "openshift:validation:FeatureGateAwareEnum",
		"openshift:validation:Enum":                               "kubebuilder:validation:Enum",
		"openshift:validation:featureGate":                        "openshift:enable:FeatureGate",
		"kubebuilder:Required":                                    "kubebuilder:validation:Required",
		"kubebuilder:validation:maxItems":                         "kubebuilder:validation:MaxItems",
	}
	for in, want := range cases {
		if got := suggestMarker(in, names); got != want {
			t.Errorf("suggestMarker(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestArgumentHint(t *testing.T) {
	reg, err := goload.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"+openshift:enable:FeatureGate":  "+openshift:enable:FeatureGate needs a value: write +openshift:enable:FeatureGate=<value>",
		"+openshift:enable:FeatureGate=": "+openshift:enable:FeatureGate needs a value: write +openshift:enable:FeatureGate=<value>",
		"+openshift:validation:FeatureGateAwareMaxItems:featureGate=A,B,maxItems=1": `cannot parse +openshift:validation:FeatureGateAwareMaxItems: expected equals, got "," (at column 16 of the arguments); ` +
			"arguments are name=value pairs separated by ',': write lists as a;b;c or {a,b,c} and quote values that contain ','",
		"+openshift:validation:FeatureGateAwareMaxItems:featureGate={A;B},maxItems=1": `cannot parse +openshift:validation:FeatureGateAwareMaxItems: expected comma, got ";" (at column 15 of the arguments); inside {...} separate list items with ','`,
		"+openshift:enable:FeatureGate=A,B": `cannot parse +openshift:enable:FeatureGate: extra arguments provided: ",B" (at column 2 of the arguments); ` +
			"arguments are name=value pairs separated by ',': write lists as a;b;c or {a,b,c} and quote values that contain ','",
		"+openshift:validation:FeatureGateAwareMaxItems:featureGate=A,maxItems=x": `cannot parse +openshift:validation:FeatureGateAwareMaxItems: expected integer, got "x" (at column 24 of the arguments)`,
	}
	for line, want := range cases {
		def := reg.Lookup(line, markers.DescribesField)
		if def == nil {
			def = reg.Lookup(line, markers.DescribesType)
		}
		if def == nil {
			t.Fatalf("no definition for %s", line)
		}
		_, err := def.Parse(line)
		if err == nil {
			t.Fatalf("%s parses", line)
		}
		if got := argumentHint(def, err); got != want {
			t.Errorf("argumentHint(%s):\n got %s\nwant %s", line, got, want)
		}
	}
}

// TestScanThenReport checks that the scan needs no gate list: one Scan
// reported with the payload's gates finds the unknown gate, reported with
// none (no payload) finds every other problem and no gate.
func TestScanThenReport(t *testing.T) {
	_, u := loadTypes(t)
	s := Scan(u)
	count := func(gates []string) (all, unknownGates int) {
		var problems diag.List
		s.Report(Input{KnownGates: gates, PayloadDir: "payload"}, &problems)
		for _, d := range problems.Items() {
			if strings.Contains(d.Message, "is not listed in the payload") {
				unknownGates++
			}
		}
		return len(problems.Items()), unknownGates
	}
	withGates, unknown := count([]string{"Example"})
	withoutGates, none := count(nil)
	if unknown != 1 || none != 0 || withGates != withoutGates+1 {
		t.Errorf("with gates: %d findings, %d unknown gates; without: %d findings, %d unknown gates", withGates, unknown, withoutGates, none)
	}
}

// loadTypes loads typesGo as package v1 of a tree of its own.
func loadTypes(t *testing.T) (string, *goload.Universe) {
	t.Helper()
	dir := testtree.Write(t, map[string]string{"v1/types.go": typesGo})
	importPath := "github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers/testdata/" + filepath.Base(dir) + "/v1"
	u, err := goload.Load(dir, []string{importPath})
	if err != nil {
		t.Fatal(err)
	}
	return dir, u
}
