package schemapatch

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

const (
	thingsGroup = "things.example.io"
	thingsCRD   = "things/v1/zz_generated.featuregated-crd-manifests/things.things.example.io/"
)

// thingsAPI returns a one-kind API tree: types.go holds the given
// declarations after a Thing kind whose spec is ThingSpec; one partial
// manifest is written per gate list.
func thingsAPI(decls string, manifests ...[]string) map[string]string {
	files := map[string]string{
		"things/v1/doc.go": "// +groupName=" + thingsGroup + "\npackage v1\n",
		"things/v1/register.go": `package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

var GroupVersion = schema.GroupVersion{Group: "` + thingsGroup + `", Version: "v1"}
`,
		"things/v1/types.go": `package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a test kind.
// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `

	// spec is the wanted state.
	Spec ThingSpec ` + "`json:\"spec\"`" + `
}
` + decls,
	}
	for _, gates := range manifests {
		name := strings.Join(gates, "+")
		if name == "" {
			name = "AAA_ungated"
		}
		files[thingsCRD+name+".yaml"] = partialManifest(thingsGroup, "things", "Thing", "v1", gates...)
	}
	return files
}

// typesLine returns the 1-based line of types.go holding text.
func typesLine(t *testing.T, files map[string]string, text string) int {
	t.Helper()
	for i, line := range strings.Split(files["things/v1/types.go"], "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("types.go has no line with %q", text)
	return 0
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name  string
		decls string
		gates [][]string
		// at is a text on the line the error must point at, want the
		// expected diagnostic after "things/v1/types.go:<line>: ".
		at   string
		want string
		// written lists the manifests (by gate list) still written: those
		// whose gate set's generation reported no error.
		written []string
	}{
		{
			name: "maxItems on a field that is not an array",
			decls: `
type ThingSpec struct {
	// name is a string.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3
	Name string ` + "`json:\"name\"`" + `
}
`,
			gates:   [][]string{{""}, {"Example"}},
			at:      "FeatureGateAwareMaxItems:featureGate=Example",
			want:    `+openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3: must apply maxitem to an array, but the schema here is of type "string"`,
			written: []string{"AAA_ungated"},
		},
		{
			// Example+Example2 takes ThingSpec's view and schema from
			// Example, and Example2 from the ungated set: the problem
			// applying the marker fails both sets it is active in.
			name: "maxItems on a field that is not an array, in gate sets sharing the view",
			decls: `
type ThingSpec struct {
	// name is a string.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3
	Name string ` + "`json:\"name\"`" + `
}
`,
			gates:   [][]string{{""}, {"Example"}, {"Example2"}, {"Example", "Example2"}},
			at:      "FeatureGateAwareMaxItems:featureGate=Example",
			want:    `+openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3: must apply maxitem to an array, but the schema here is of type "string"`,
			written: []string{"AAA_ungated", "Example2"},
		},
		{
			name: "maxItems on a type that is not an array",
			decls: `
type ThingSpec struct {
	// count is a number.
	Count Count ` + "`json:\"count\"`" + `
}

// Count is a number.
// +openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=3
type Count int32
`,
			gates:   [][]string{{""}, {"Example"}},
			at:      "FeatureGateAwareMaxItems:featureGate=\"\"",
			want:    `+openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=3: must apply maxitem to an array, but the schema here is of type "integer"`,
			written: []string{"Example"},
		},
		{
			name: "malformed marker argument",
			decls: `
type ThingSpec struct {
	// parts is a list.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=many
	Parts []string ` + "`json:\"parts\"`" + `
}
`,
			gates: [][]string{{""}, {"Example"}, {"Example2"}, {"Example", "Example2"}},
			at:    "maxItems=many",
			want:  `+openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=many: `,
		},
		{
			name: "gate-aware enum next to a plain enum",
			decls: `
type ThingSpec struct {
	// mode is a mode.
	// +kubebuilder:validation:Enum=A;B
	// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A;B;C
	Mode string ` + "`json:\"mode\"`" + `
}
`,
			gates: [][]string{{""}, {"Example"}},
			at:    "FeatureGateAwareEnum:featureGate=Example",
			want:  `+openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A;B;C: cannot be combined with +kubebuilder:validation:Enum on the same field or type`,
		},
		{
			name: "gate-aware maxItems next to a plain maxItems",
			decls: `
type ThingSpec struct {
	// parts is a list.
	// +kubebuilder:validation:MaxItems=2
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3
	Parts []string ` + "`json:\"parts\"`" + `
}
`,
			gates: [][]string{{""}, {"Example"}},
			at:    "FeatureGateAwareMaxItems:featureGate=Example",
			want:  `+openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3: cannot be combined with +kubebuilder:validation:MaxItems`,
		},
		{
			name: "gate-aware marker without any gate",
			decls: `
// ThingSpec is a spec.
// +openshift:validation:FeatureGateAwareXValidation:rule="self.a == 'x'"
type ThingSpec struct {
	// a is a string.
	A string ` + "`json:\"a\"`" + `
}
`,
			gates: [][]string{{""}},
			at:    `FeatureGateAwareXValidation:rule=`,
			want:  `+openshift:validation:FeatureGateAwareXValidation:rule="self.a == 'x'": names no gate: give featureGate=`,
		},
		{
			name: "second of two gate-aware markers without any gate",
			decls: `
// ThingSpec is a spec.
// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=a
// +openshift:validation:FeatureGateAwareEnum:enum=a;b
type ThingSpec struct {
	// a is a string.
	A string ` + "`json:\"a\"`" + `
}
`,
			gates: [][]string{{""}},
			at:    `FeatureGateAwareEnum:enum=a;b`,
			want:  `+openshift:validation:FeatureGateAwareEnum:enum=a;b: names no gate: give featureGate=`,
		},
		{
			name: "empty requiredFeatureGate",
			decls: `
type ThingSpec struct {
	// a is a string.
	// +openshift:validation:FeatureGateAwareEnum:requiredFeatureGate="",enum=a
	A string ` + "`json:\"a\"`" + `
}
`,
			gates: [][]string{{""}},
			at:    `requiredFeatureGate=""`,
			want:  `+openshift:validation:FeatureGateAwareEnum:requiredFeatureGate="",enum=a: requiredFeatureGate: names an empty gate`,
		},
		{
			name: "field gate without a name",
			decls: `
type ThingSpec struct {
	// a is a string.
	// +openshift:enable:FeatureGate=""
	A string ` + "`json:\"a\"`" + `
}
`,
			gates: [][]string{{""}},
			at:    `+openshift:enable:FeatureGate=""`,
			want:  `+openshift:enable:FeatureGate="": needs a feature gate name`,
		},
		{
			name: "unknown type",
			decls: `
type ThingSpec struct {
	// a is of a type that does not exist.
	A Missing ` + "`json:\"a\"`" + `
}
`,
			gates: [][]string{{""}, {"Example"}},
			at:    "A Missing",
			want:  `unknown type Missing`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := thingsAPI(c.decls, c.gates...)
			l := load(t, write(t, files))
			_, list, tr := l.run(t)
			problems := problemStrings(list)
			prefix := "error: things/v1/types.go:" + strconv.Itoa(typesLine(t, files, c.at)) + ": "
			found := 0
			for _, p := range problems {
				if strings.HasPrefix(p, prefix+c.want) {
					found++
				}
			}
			if found != 1 {
				t.Fatalf("want exactly one problem starting with\n  %s%s\ngot:\n  %s", prefix, c.want, strings.Join(problems, "\n  "))
			}
			if len(problems) != 1 {
				t.Errorf("want only that problem, got:\n  %s", strings.Join(problems, "\n  "))
			}
			// A manifest is written only when the generation of its gate
			// set reported no error.
			changes, _, err := tr.Changes()
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, name := range c.written {
				want = append(want, filepath.Join(l.base, thingsCRD, name+".yaml"))
			}
			if got := changeNames(changes); !reflect.DeepEqual(got, want) {
				t.Errorf("written = %v, want %v", got, want)
			}
		})
	}
}

func changeNames(changes []tree.Change) []string {
	var out []string
	for _, c := range changes {
		out = append(out, c.Path)
	}
	return out
}

// TestManifestProblems: manifests stage 2 cannot process are reported with
// their file and key, and left untouched.
func TestManifestProblems(t *testing.T) {
	const decls = `
type ThingSpec struct {
	// a is a string.
	A string ` + "`json:\"a\"`" + `
}
`
	cases := []struct {
		name    string
		content string
		want    string
	}{
		{"legacy feature-set annotation", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    release.openshift.io/feature-set: TechPreviewNoUpgrade
spec: {group: things.example.io, names: {kind: Thing}, versions: [{name: v1}]}
`, "error: " + thingsCRD + "Legacy.yaml: release.openshift.io/feature-set: TechPreviewNoUpgrade: legacy FeatureSet mode is not supported"},
		{"versions not a list", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec: {group: things.example.io, names: {kind: Thing}, versions: {name: v1}}
`, "error: " + thingsCRD + "Legacy.yaml: spec.versions: must be a list"},
		{"version without a name", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec: {group: things.example.io, names: {kind: Thing}, versions: [{served: true}]}
`, "error: " + thingsCRD + "Legacy.yaml: spec.versions[0].name: must be a non-empty string"},
		{"annotations not a mapping", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {annotations: [a]}
spec: {group: things.example.io, names: {kind: Thing}, versions: [{name: v1}]}
`, "error: " + thingsCRD + "Legacy.yaml: metadata.annotations: must be a mapping"},
		{"not YAML", "a: [\n", "error: " + thingsCRD + "Legacy.yaml: is not a valid YAML object, but zz_generated.featuregated-crd-manifests holds generated partial manifests"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := thingsAPI(decls, []string{""})
			files[thingsCRD+"Legacy.yaml"] = c.content
			l := load(t, write(t, files))
			res, list, tr := l.run(t)
			problems := problemStrings(list)
			if len(problems) != 1 || !strings.HasPrefix(problems[0], c.want) {
				t.Fatalf("problems = %q, want one starting with %q", problems, c.want)
			}
			changes, _, _ := tr.Changes()
			want := []string{filepath.Join(l.base, thingsCRD, "AAA_ungated.yaml")}
			if got := changeNames(changes); !reflect.DeepEqual(got, want) {
				t.Errorf("written = %v, want only the valid manifest %v", got, want)
			}
			if res.Manifests != 1 {
				t.Errorf("processed %d manifests, want 1", res.Manifests)
			}
		})
	}
}

// TestInvalidYAMLOutsidePartialManifests: below a version directory only
// the partial manifests directory is known to hold CRDs; another file that
// is not YAML is skipped with a warning.
func TestInvalidYAMLOutsidePartialManifests(t *testing.T) {
	files := thingsAPI("\ntype ThingSpec struct {\n\tA string `json:\"a\"`\n}\n", []string{""})
	files["things/v1/tests/notes.yaml"] = "a: [\n"
	l := load(t, write(t, files))
	_, list, _ := l.run(t)
	problems := problemStrings(list)
	if want := "warning: things/v1/tests/notes.yaml: not a YAML object, so not a CRD manifest; skipped"; len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
		t.Fatalf("problems = %q, want one starting with %q", problems, want)
	}
}

// TestVersionMatching: a manifest's versions are matched to packages by
// the controller-tools version of the package (+versionName, else the
// package name); a version defined twice is an error, a version defined
// nowhere loses its schema.
func TestVersionMatching(t *testing.T) {
	files := thingsAPI(`
type ThingSpec struct {
	// a is a string.
	A string `+"`json:\"a\"`"+`
}
`, []string{""})
	// A second package of the group that claims to be v1 as well.
	files["things/v1beta1/doc.go"] = "// +groupName=" + thingsGroup + "\n// +versionName=v1\npackage v1beta1\n"
	files["things/v1beta1/register.go"] = strings.Replace(strings.Replace(files["things/v1/register.go"], "package v1", "package v1beta1", 1), `Version: "v1"`, `Version: "v1beta1"`, 1)
	files["things/v1beta1/types.go"] = strings.Replace(files["things/v1/types.go"], "package v1", "package v1beta1", 1)
	l := load(t, write(t, files))
	_, list, _ := l.run(t)
	problems := problemStrings(list)
	want := "error: " + thingsCRD + "AAA_ungated.yaml: spec.versions v1: kind Thing of group things.example.io is defined by more than one package for this version"
	if len(problems) != 1 || !strings.HasPrefix(problems[0], want) {
		t.Fatalf("problems = %q, want one starting with %q", problems, want)
	}
}

// TestRunInputs: missing inputs are an error, and without a Problems list
// the problems found come back as Run's error.
func TestRunInputs(t *testing.T) {
	if _, err := Run(Input{}); err == nil {
		t.Error("Run without inputs must fail")
	}
	files := thingsAPI(`
type ThingSpec struct {
	// a is of a type that does not exist.
	A Missing `+"`json:\"a\"`"+`
}
`, []string{""})
	l := load(t, write(t, files))
	res, err := Run(Input{Discovery: l.discovery, Universe: l.universe, Tree: tree.New()})
	if err == nil || !strings.Contains(err.Error(), "things/v1/types.go:17: unknown type Missing") {
		t.Fatalf("err = %v, want the unknown type", err)
	}
	if res == nil || res.Manifests != 1 {
		t.Fatalf("result = %+v, want one manifest processed", res)
	}
}
