package partialschemas

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func TestRawListElements(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{`A`, []string{"A"}},
		{`A;B`, []string{"A", "B"}},
		{`"";A`, []string{`""`, "A"}},
		{`{A,"B"}`, []string{"A", `"B"`}},
		{`"a;b";c`, []string{`"a;b"`, "c"}},
		{"`x;y`;z", []string{"`x;y`", "z"}},
		{``, []string{""}},
	}
	for _, c := range cases {
		if got := rawListElements(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("rawListElements(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRawArguments(t *testing.T) {
	name := "openshift:validation:FeatureGateAwareXValidation"
	got := rawArguments(`+`+name+`:featureGate="Foo";Bar,rule="a, featureGate=\"x\" b",message=m,requiredFeatureGate={A,B}`, name)
	want := map[string]string{
		"featureGate":         `"Foo";Bar`,
		"rule":                `"a, featureGate=\"x\" b"`,
		"message":             "m",
		"requiredFeatureGate": "{A,B}",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rawArguments = %q, want %q", got, want)
	}
	if got := rawAnonymousValue(`+openshift:enable:FeatureGate="Foo"`, "openshift:enable:FeatureGate"); got != `"Foo"` {
		t.Errorf("rawAnonymousValue = %q", got)
	}
}

func TestFileName(t *testing.T) {
	for entry, want := range map[string]string{"": "AAA_ungated.yaml", "A": "A.yaml", "A+B": "A+B.yaml"} {
		if got := FileName(entry); got != want {
			t.Errorf("FileName(%q) = %q, want %q", entry, got, want)
		}
	}
}

// TestSameIgnoringSchema pins the comparison of the write policy on a
// small manifest.
func TestSameIgnoringSchema(t *testing.T) {
	crd := &CRD{Name: "things.example.io", Kind: "Thing", ListKind: "ThingList", Singular: "thing", Plural: "things",
		Group: "example.io", Version: "v1", Scope: "Cluster", Labels: map[string]string{"a": "b"}}
	want := crd.Object("G")
	base, err := MarshalObject(want)
	if err != nil {
		t.Fatal(err)
	}
	b := string(base)
	cases := []struct {
		name, content string
		same          bool
		err           bool
	}{
		{"identical", b, true, false},
		{"with schema", strings.Replace(b, "    served: true", "    schema:\n      openAPIV3Schema:\n        type: object\n    served: true", 1), true, false},
		{"empty categories", strings.Replace(b, "    kind: Thing", "    categories: []\n    kind: Thing", 1), true, false},
		{"other label", strings.Replace(b, "a: b", "a: c", 1), false, false},
		{"no versions", b[:strings.Index(b, "  versions:")], false, false},
		{"unknown field", b + "extra: 1\n", false, false},
		{"not a CRD at all", "- a\n- b\n", false, true},
		{"invalid YAML", "a: [\n", false, true},
	}
	for _, c := range cases {
		m, err := manifest.Parse([]byte(c.content))
		same := err == nil && sameIgnoringSchema(m, want)
		if same != c.same || (err != nil) != c.err {
			t.Errorf("%s: same=%v err=%v, want same=%v err=%v", c.name, same, err, c.same, c.err)
		}
	}
}

func TestRunRequiresInput(t *testing.T) {
	if _, err := Run(Input{Tree: tree.New()}); err == nil {
		t.Fatal("Run without Discovery and Universe succeeded")
	}
}
