package suite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// validSuite is a suite using every field. Tests below break it in one
// place each; keep the line numbers in mind when editing it.
const validSuite = `apiVersion: apiextensions.k8s.io/v1
name: Widgets with Fancy
crdName: widgets.suite.gatedcrd.example
featureGates:
- Fancy
- -Plain
version: v1
tests:
  onCreate:
  - name: Should create
    initial: |
      apiVersion: suite.gatedcrd.example/v1
      kind: Widget
      spec: {size: 2}
    expected: |
      apiVersion: suite.gatedcrd.example/v1
      kind: Widget
      spec: {size: 2}
  - name: Should reject
    initial: |
      apiVersion: suite.gatedcrd.example/v1
      kind: Widget
      spec: {size: 20}
    expectedError: "spec.size"
  onUpdate:
  - name: Should update
    initialCRDPatches:
    - op: remove
      path: /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/maximum
    - op: add
      path: /metadata/labels
      value: {a: b}
    - op: copy
      from: /metadata/labels
      path: /metadata/annotations
    initial: |
      apiVersion: suite.gatedcrd.example/v1
      kind: Widget
      spec: {size: 20}
    updated: |
      apiVersion: suite.gatedcrd.example/v1
      kind: Widget
      spec: {size: 20}
      status: {phase: Ready}
    expectedStatusError: "phase"
`

func TestParseValid(t *testing.T) {
	s, err := Parse("v1/tests/widgets/Fancy.yaml", []byte(validSuite))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "Widgets with Fancy" || s.CRDName != "widgets.suite.gatedcrd.example" || s.CRDNameLine != 3 {
		t.Errorf("name %q, crdName %q on line %d", s.Name, s.CRDName, s.CRDNameLine)
	}
	want := []GateRequirement{{Gate: "Fancy", Enabled: true, Line: 5}, {Gate: "Plain", Enabled: false, Line: 6}}
	if len(s.FeatureGates) != 2 || s.FeatureGates[0] != want[0] || s.FeatureGates[1] != want[1] {
		t.Errorf("featureGates %+v, want %+v", s.FeatureGates, want)
	}
	if s.GateList() != "Fancy,-Plain" {
		t.Errorf("GateList() = %q", s.GateList())
	}
	if s.Version != "v1" || s.VersionLine != 7 {
		t.Errorf("version %q on line %d", s.Version, s.VersionLine)
	}
	if len(s.OnCreate) != 2 || len(s.OnUpdate) != 1 {
		t.Fatalf("%d onCreate and %d onUpdate tests, want 2 and 1", len(s.OnCreate), len(s.OnUpdate))
	}
	c := s.OnCreate[0]
	if c.Name != "Should create" || c.Line != 10 || c.Initial.Line != 11 || c.Expected == nil || c.Expected.Line != 15 {
		t.Errorf("first onCreate test: %+v", c)
	}
	if got := c.Initial.Object.GetKind(); got != "Widget" {
		t.Errorf("initial kind %q", got)
	}
	if s.OnCreate[1].ExpectedError != "spec.size" || s.OnCreate[1].Expected != nil {
		t.Errorf("second onCreate test: %+v", s.OnCreate[1])
	}
	u := s.OnUpdate[0]
	if u.ExpectedStatusError != "phase" || !u.Updated.hasStatus() || u.Initial.hasStatus() {
		t.Errorf("onUpdate test: %+v", u)
	}
	patch, err := patchJSON(u.InitialCRDPatches)
	if err != nil {
		t.Fatal(err)
	}
	wantPatch := `[{"op":"remove","path":"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/maximum"},` +
		`{"op":"add","path":"/metadata/labels","value":{"a":"b"}},` +
		`{"from":"/metadata/labels","op":"copy","path":"/metadata/annotations"}]`
	if string(patch) != wantPatch {
		t.Errorf("patch\n%s\nwant\n%s", patch, wantPatch)
	}
}

func TestParseDefaults(t *testing.T) {
	text := "crdName: widgets.suite.gatedcrd.example\ntests:\n  onCreate:\n  - name: a\n    initial: 'kind: Widget'\n"
	s, err := Parse("x/tests/widgets/AAA_ungated.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "AAA_ungated" {
		t.Errorf("name %q, want the file's base name", s.Name)
	}
	if s.Version != "" || len(s.FeatureGates) != 0 || s.OnCreate[0].Expected != nil || s.OnCreate[0].ExpectedError != "" {
		t.Errorf("unexpected defaults: %+v", s)
	}
}

// TestParseErrors breaks validSuite in one place per case and checks the
// message, which must start with the file and line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // replace old by new in validSuite (old must occur)
		text     string // or use this text
		want     []string
	}{
		{
			name: "singular featureGate",
			old:  "featureGates:", new: "featureGate:",
			want: []string{`s.yaml:4: unknown field "featureGate" in the suite; did you mean "featureGates"?`},
		},
		{
			name: "misspelt expectedError",
			old:  `    expectedError: "spec.size"`, new: `    expectedErorr: "spec.size"`,
			want: []string{`s.yaml:24: unknown field "expectedErorr" in an onCreate test; did you mean "expectedError"?`},
		},
		{
			name: "unknown field in tests",
			old:  "  onUpdate:", new: "  onUpdates:",
			want: []string{`s.yaml:25: unknown field "onUpdates" in tests; did you mean "onUpdate"?`},
		},
		{
			name: "unknown field in a patch operation",
			old:  "      value: {a: b}", new: "      vaule: {a: b}",
			want: []string{`s.yaml:32: unknown field "vaule" in an initialCRDPatches operation; did you mean "value"?`,
				`s.yaml:30: initialCRDPatches: op add needs a value`},
		},
		{
			name: "kind is not a suite field",
			old:  "name: Widgets with Fancy", new: "kind: Suite",
			want: []string{`s.yaml:2: unknown field "kind" in the suite`},
		},
		{
			name: "repeated field",
			old:  "version: v1", new: "version: v1\nversion: v2",
			want: []string{`s.yaml:8: field "version" of the suite is repeated (first on line 7)`},
		},
		{
			name: "missing crdName",
			old:  "crdName: widgets.suite.gatedcrd.example\n", new: "",
			want: []string{`s.yaml:1: the suite: missing required field "crdName"`},
		},
		{
			name: "crdName without a group",
			old:  "crdName: widgets.suite.gatedcrd.example", new: "crdName: widgets",
			want: []string{`s.yaml:3: crdName "widgets" is not of the form <plural>.<group>`},
		},
		{
			name: "missing tests",
			text: "crdName: a.b\n",
			want: []string{`s.yaml:1: the suite: missing required field "tests"`},
		},
		{
			name: "no tests",
			text: "crdName: a.b\ntests:\n  onCreate: []\n",
			want: []string{`s.yaml:2: tests: no onCreate or onUpdate test`},
		},
		{
			name: "missing test name",
			old:  "  - name: Should create\n    initial:", new: "  - initial:",
			want: []string{`s.yaml:10: onCreate test: missing required field "name"`},
		},
		{
			name: "missing initial",
			old:  "  - name: Should reject\n    initial: |\n      apiVersion: suite.gatedcrd.example/v1\n      kind: Widget\n      spec: {size: 20}\n",
			new:  "  - name: Should reject\n",
			want: []string{`s.yaml:19: onCreate test "Should reject": missing required field "initial"`},
		},
		{
			name: "update without updated",
			old:  "    updated: |\n      apiVersion: suite.gatedcrd.example/v1\n      kind: Widget\n      spec: {size: 20}\n      status: {phase: Ready}\n    expectedStatusError: \"phase\"\n",
			new:  "",
			want: []string{`s.yaml:26: onUpdate test "Should update": missing required field "updated"`},
		},
		{
			name: "expected and expectedError",
			old:  `    expectedError: "spec.size"`, new: "    expectedError: \"spec.size\"\n    expected: 'kind: Widget'",
			want: []string{`s.yaml:24: onCreate test "Should reject": expected and expectedError exclude each other`},
		},
		{
			name: "expected and expectedStatusError",
			old:  `    expectedStatusError: "phase"`, new: "    expected: 'kind: Widget'\n    expectedStatusError: \"phase\"",
			want: []string{`s.yaml:46: onUpdate test "Should update": expected and expectedStatusError exclude each other`},
		},
		{
			name: "expectedStatusError without a status to update",
			old:  "      status: {phase: Ready}\n", new: "",
			want: []string{`s.yaml:44: onUpdate test "Should update": expectedStatusError needs an updated object with a status`},
		},
		{
			name: "empty expectedError",
			old:  `    expectedError: "spec.size"`, new: `    expectedError: ""`,
			want: []string{`s.yaml:24: expectedError must not be empty`},
		},
		{
			name: "duplicate test name",
			old:  "  - name: Should reject", new: "  - name: Should create",
			want: []string{`s.yaml:19: onCreate test: test name "Should create" is used twice (first on line 10)`},
		},
		{
			name: "unknown patch op",
			old:  "    - op: remove", new: "    - op: delete",
			want: []string{`s.yaml:28: initialCRDPatches: unknown op "delete"`},
		},
		{
			name: "patch path is not a pointer",
			old:  "      path: /metadata/labels", new: "      path: metadata.labels",
			want: []string{`s.yaml:31: initialCRDPatches: path "metadata.labels" is not a JSON pointer`},
		},
		{
			name: "remove with a value",
			old:  "    - op: remove\n", new: "    - op: remove\n      value: 1\n",
			want: []string{`s.yaml:29: initialCRDPatches: op remove takes no value`},
		},
		{
			name: "copy without from",
			old:  "      from: /metadata/labels\n", new: "",
			want: []string{`s.yaml:33: initialCRDPatches: op copy needs a from path`},
		},
		{
			name: "object as a mapping instead of text",
			old:  "    initial: |\n      apiVersion: suite.gatedcrd.example/v1\n      kind: Widget\n      spec: {size: 2}\n",
			new:  "    initial:\n      kind: Widget\n",
			want: []string{`s.yaml:12: initial must be the object as YAML text (initial: |, then the object indented below), not a mapping`},
		},
		{
			name: "object text that is not YAML",
			old:  "      spec: {size: 2}\n    expected:", new: "      spec: {size: 2\n    expected:",
			want: []string{`s.yaml:11: initial: decoding object:`},
		},
		{
			name: "featureGates not a list",
			old:  "featureGates:\n- Fancy\n- -Plain\n", new: "featureGates: Fancy\n",
			want: []string{`s.yaml:4: featureGates: must be a list of gate names, not the string "Fancy"`},
		},
		{
			name: "two gates in one entry",
			old:  "- Fancy\n", new: "- Fancy,Other\n",
			want: []string{`s.yaml:5: featureGates: "Fancy,Other" is not a gate name`},
		},
		{
			name: "a gate twice",
			old:  "- -Plain\n", new: "- Fancy\n",
			want: []string{`s.yaml:6: featureGates: Fancy is listed twice (first on line 5)`},
		},
		{
			name: "a gate required on and off",
			old:  "- -Plain\n", new: "- -Fancy\n",
			want: []string{`s.yaml:6: featureGates: -Fancy contradicts Fancy on line 5`},
		},
		{
			name: "invalid YAML",
			old:  "  onCreate:\n", new: "  onCreate:\n  - [\n",
			want: []string{`s.yaml:10: invalid YAML:`},
		},
		{
			name: "empty file",
			text: "# nothing\n",
			want: []string{`s.yaml: empty file`},
		},
		{
			name: "two documents",
			text: validSuite + "---\ncrdName: a.b\n",
			want: []string{`s.yaml:47: a suite file holds one YAML document`},
		},
		{
			name: "every problem, in line order",
			text: "featureGate: [A]\ncrdName: a.b\ntests:\n  onCreate:\n  - name: x\n    inital: 'kind: A'\n",
			want: []string{
				`s.yaml:1: unknown field "featureGate"`,
				`s.yaml:5: onCreate test "x": missing required field "initial"`,
				`s.yaml:6: unknown field "inital" in an onCreate test; did you mean "initial"?`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			if text == "" {
				if !strings.Contains(validSuite, tc.old) {
					t.Fatalf("validSuite does not contain %q", tc.old)
				}
				text = strings.Replace(validSuite, tc.old, tc.new, 1)
			}
			s, err := Parse("s.yaml", []byte(text))
			if err == nil {
				t.Fatalf("no error; parsed %+v", s)
			}
			if s != nil {
				t.Errorf("a suite was returned with the error")
			}
			msg := err.Error()
			last := -1
			for _, want := range tc.want {
				i := strings.Index(msg, want)
				if i < 0 {
					t.Errorf("error\n%s\ndoes not contain\n%s", msg, want)
					continue
				}
				if len(tc.want) > 1 && tc.name == "every problem, in line order" && i < last {
					t.Errorf("error\n%s\nlists %q out of order", msg, want)
				}
				last = i
			}
			for _, line := range strings.Split(msg, "\n") {
				if !strings.HasPrefix(line, "s.yaml:") && !strings.HasPrefix(line, "\t") {
					t.Errorf("error line %q does not start with the file name", line)
				}
			}
			var e *diag.Diagnostic
			if !errors.As(err, &e) {
				t.Errorf("error %T is not a *diag.Diagnostic", err)
			}
		})
	}
}

func TestParseFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tests", "widgets", "Fancy.yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(validSuite, "featureGates:", "featureGate:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path, ParseOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), path+":4: ") {
		t.Errorf("error %v, want one starting with %s:4:", err, path)
	}
	if _, err := ParseFile(path+".missing", ParseOptions{Lenient: true}); err == nil || !strings.Contains(err.Error(), "Fancy.yaml.missing") {
		t.Errorf("error %v for a missing file", err)
	}
}

// TestParseLenient checks that lenient parsing gives the defects of
// suites written for openshift/api's runner that runner's meaning, with a
// warning naming the line and the consequence, while strict parsing
// rejects the same text; and that other problems stay errors.
func TestParseLenient(t *testing.T) {
	const text = `name: Widgets
crdName: widgets.suite.gatedcrd.example
featureGate:
- Fancy
tests:
  onCreate:
  - name: dropped
    initial: 'kind: Widget'
  onCreate:
  - name: same
    initial: 'kind: Widget'
  - name: same
    initial: |
      kind: Widget
      spec: {size: 2}
    expectedError: size
onUpdate:
- name: ignored
  initial: 'kind: Widget'
  updated: 'kind: Widget'
`
	s, err := ParseWith("s.yaml", []byte(text), ParseOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.FeatureGates) != 0 || len(s.OnUpdate) != 0 {
		t.Errorf("featureGates %v and %d onUpdate tests, want none: ignored fields add nothing", s.FeatureGates, len(s.OnUpdate))
	}
	if len(s.OnCreate) != 2 || s.OnCreate[0].Name != "same" || s.OnCreate[1].ExpectedError != "size" {
		t.Errorf("onCreate tests %+v, want both tests of the last list", s.OnCreate)
	}
	want := []string{
		`s.yaml:3: unknown field "featureGate" in the suite; did you mean "featureGates"? (known fields: apiVersion, crdName, featureGates, name, tests, version); ignored, so the suite has no gate requirements and runs against every CRD file of its crdName (strict parsing rejects this)`,
		`s.yaml:9: field "onCreate" of tests is repeated (first on line 6); this one counts, the one on line 6 is ignored, so its test does not run (strict parsing rejects this)`,
		`s.yaml:12: onCreate test: test name "same" is used twice (first on line 10); both run (strict parsing rejects this)`,
		`s.yaml:17: unknown field "onUpdate" in the suite (known fields: apiVersion, crdName, featureGates, name, tests, version); ignored, so its test does not run (onUpdate belongs under tests:) (strict parsing rejects this)`,
	}
	var got []string
	for _, w := range s.Warnings {
		got = append(got, w.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	_, err = Parse("s.yaml", []byte(text))
	if err == nil {
		t.Fatal("strict parsing accepted the defects")
	}
	// Strict parsing skips the repeated list, so it does not get to the
	// repeated name in it (the table of TestParseErrors has one).
	for _, w := range slices.Delete(slices.Clone(want), 2, 3) {
		strict, _, _ := strings.Cut(w, "; ignored")
		strict, _, _ = strings.Cut(strict, "; this one counts")
		if !strings.Contains(err.Error(), strict) {
			t.Errorf("strict error\n%v\ndoes not contain\n%s", err, strict)
		}
	}
	if strings.Contains(err.Error(), "strict parsing rejects this") {
		t.Errorf("strict error %v speaks of leniency", err)
	}

	// Problems the other runner rejects as well stay errors.
	if _, err := ParseWith("s.yaml", []byte("crdName: a.b\ntests:\n  onCreate:\n  - name: x\n"), ParseOptions{Lenient: true}); err == nil ||
		!strings.Contains(err.Error(), `s.yaml:4: onCreate test "x": missing required field "initial"`) {
		t.Errorf("lenient parsing of a test without initial: %v", err)
	}
}

func TestGateRequirementString(t *testing.T) {
	for _, g := range []GateRequirement{{Gate: featuregate.FeatureGateName("A"), Enabled: true}, {Gate: "B"}} {
		want := string(g.Gate)
		if !g.Enabled {
			want = "-" + want
		}
		if g.String() != want {
			t.Errorf("%+v.String() = %q, want %q", g, g.String(), want)
		}
	}
}

// TestParsePatchNullValue: a patch's value: null is the value to write,
// although a null field is otherwise one left out.
func TestParsePatchNullValue(t *testing.T) {
	text := "crdName: widgets.suite.gatedcrd.example\ntests:\n  onUpdate:\n  - name: a\n    initial: 'kind: Widget'\n    updated: 'kind: Widget'\n" +
		"    initialCRDPatches:\n    - {op: add, path: /metadata/labels, value: null}\n"
	s, err := Parse("s.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	patch, err := patchJSON(s.OnUpdate[0].InitialCRDPatches)
	if want := `[{"op":"add","path":"/metadata/labels","value":null}]`; err != nil || string(patch) != want {
		t.Errorf("patch %s (%v), want %s", patch, err, want)
	}
}
