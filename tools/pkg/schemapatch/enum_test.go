package schemapatch

import (
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// TestEnumFromConstants: +enum takes its values from the typed constants of
// every loaded package (here the type's own and a root package using it), by
// their go/types value, sorted and de-duplicated.
func TestEnumFromConstants(t *testing.T) {
	l := load(t, write(t, enumTree()))
	l.enumFromConstants = true
	checkEnums(t, l, []any{"Blue", "Orange", "Red"}, []any{"Fast", "Slow"})
}

// TestEnumIgnoredWithoutOptIn: without enumFromConstants in .gatedcrd.yaml,
// +enum changes nothing, as in the reference generator.
func TestEnumIgnoredWithoutOptIn(t *testing.T) {
	checkEnums(t, load(t, write(t, enumTree())), nil, nil)
}

// enumTree is an API whose spec has two +enum types: common.Colour,
// declared in another package with constants in both, and Mode.
func enumTree() map[string]string {
	files := thingsAPI(`
type ThingSpec struct {
	// colour is the colour.
	Colour common.Colour `+"`json:\"colour\"`"+`
	// mode is an enum of this package.
	Mode Mode `+"`json:\"mode\"`"+`
}

// Mode is declared here, its constants too.
// +enum
type Mode string

const (
	ModeSlow Mode = "Slow"
	ModeFast Mode = "Fa" + "st"
	ModeDefault = ModeSlow
)

// Constants of another package's enum type count too.
const (
	Orange common.Colour = "Orange"
	Crimson = common.Red
)
`, []string{""}, []string{"Example"})
	const metav1Import = "import metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n"
	files["things/v1/types.go"] = strings.Replace(files["things/v1/types.go"], metav1Import,
		metav1Import+"import \""+testload.RootPlaceholder+"/things/common\"\n", 1)
	files["things/common/colour.go"] = `package common

// Colour is a colour.
// +enum
type Colour string

const (
	Red Colour = "Red"
	Blue = Colour(base)
	base = "Blue"
	NotAColour = "Purple"
)
`
	return files
}

// checkEnums runs the stage and compares the enums of the spec's colour and
// mode (nil: none) in two gate sets.
func checkEnums(t *testing.T, l *loaded, colour, mode any) {
	t.Helper()
	_, tr := l.mustRun(t)
	get := func(gate, path string) any {
		content, err := tr.ReadFile(filepath.Join(l.base, thingsCRD, gate+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		obj, err := manifest.Parse(content)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := lookup(obj, "spec.versions.0.schema.openAPIV3Schema.properties.spec.properties."+path)
		return v
	}
	cases := []struct {
		gate, path string
		want       any
	}{
		{"AAA_ungated", "colour.enum", colour},
		{"AAA_ungated", "mode.enum", mode},
		{"Example", "colour.enum", colour},
		{"AAA_ungated", "colour.description", "colour is the colour."},
	}
	for _, c := range cases {
		if got := get(c.gate, c.path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %s = %#v, want %#v", c.gate, c.path, got, c.want)
		}
	}
}

// TestEnumErrors: with enumFromConstants, every misuse of +enum is
// reported at the +enum line, conflicts with the other marker's position
// too; without it, none is a problem.
func TestEnumErrors(t *testing.T) {
	cases := []struct {
		name, decls string
		// want follows "things/v1/types.go:<line of +enum>: +enum: "; @N@
		// stands for the line holding the text other.
		want, other string
	}{
		{
			name: "with a plain enum",
			decls: `
type ThingSpec struct {
	M Mode ` + "`json:\"m\"`" + `
}

// +kubebuilder:validation:Enum=A;B
// +enum
type Mode string

const A Mode = "A"
`,
			want:  "cannot be combined with +kubebuilder:validation:Enum (things/v1/types.go:@N@) on the same type: both set the enum; keep one",
			other: "validation:Enum=A;B",
		},
		{
			name: "with a FeatureGate-aware enum",
			decls: `
type ThingSpec struct {
	M Mode ` + "`json:\"m\"`" + `
}

// +enum
// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum=A
type Mode string

const A Mode = "A"
`,
			want:  "cannot be combined with +openshift:validation:FeatureGateAwareEnum (things/v1/types.go:@N@) on the same type",
			other: "FeatureGateAwareEnum:featureGate=Example",
		},
		{
			name: "not a string type",
			decls: `
type ThingSpec struct {
	M Mode ` + "`json:\"m\"`" + `
}

// +enum
type Mode int32

const A Mode = 1
`,
			want: "type Mode is not a string type (its underlying type is int32); +enum needs string constants",
		},
		{
			name: "no constants",
			decls: `
type ThingSpec struct {
	M Mode ` + "`json:\"m\"`" + `
}

// +enum
type Mode string
`,
			want: "no constant of type Mode is declared in the loaded packages; +enum takes its values from them",
		},
		{
			name: "on a field",
			decls: `
type ThingSpec struct {
	// m is a string.
	// +enum
	M string ` + "`json:\"m\"`" + `
}
`,
			want: "must be set on a string type, not on a field",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := thingsAPI(c.decls, []string{""}, []string{"Example"})
			want := c.want
			if c.other != "" {
				want = strings.ReplaceAll(want, "@N@", strconv.Itoa(typesLine(t, files, c.other)))
			}
			l := load(t, write(t, files))
			l.enumFromConstants = true
			_, list, tr := l.run(t)
			prefix := "error: things/v1/types.go:" + strconv.Itoa(typesLine(t, files, "+enum")) + ": +enum: "
			problems := problemStrings(list)
			if len(problems) != 1 || !strings.HasPrefix(problems[0], prefix+want) {
				t.Fatalf("problems:\n  %s\nwant exactly one starting with\n  %s", strings.Join(problems, "\n  "), prefix+want)
			}
			if changes, _, _ := tr.Changes(); len(changes) != 0 {
				t.Errorf("a failing run wrote %v", changeNames(changes))
			}
			// Without the opt-in, the reference ignores +enum; so do we.
			l.enumFromConstants = false
			if _, list, _ := l.run(t); len(list.Items()) != 0 {
				t.Errorf("without enumFromConstants: problems\n  %s", strings.Join(problemStrings(list), "\n  "))
			}
		})
	}
}
