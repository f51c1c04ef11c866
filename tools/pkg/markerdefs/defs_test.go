package markerdefs

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/markers"
)

func parse(t *testing.T, raw string, target markers.TargetType) (any, error) {
	t.Helper()
	reg := &markers.Registry{}
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	def := reg.Lookup(raw, target)
	if def == nil {
		t.Fatalf("no definition found for %s", raw)
	}
	return def.Parse(raw)
}

func TestParse(t *testing.T) {
	yes := true
	cases := []struct {
		raw    string
		target markers.TargetType
		want   any
	}{
		{"+openshift:enable:FeatureGate=Example", markers.DescribesField, EnableFeatureGate{"Example"}},
		{"+openshift:enable:FeatureGate=Example", markers.DescribesType, EnableFeatureGate{"Example"}},
		{`+openshift:validation:FeatureGateAwareEnum:featureGate="",enum="";StableValue`, markers.DescribesType,
			GateAwareEnum{FeatureGate: []string{""}, Enum: []string{"", "StableValue"}}},
		{`+openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum="";StableValue;TechPreviewOnlyValue`, markers.DescribesField,
			GateAwareEnum{FeatureGate: []string{"Example"}, Enum: []string{"", "StableValue", "TechPreviewOnlyValue"}}},
		{`+openshift:validation:FeatureGateAwareEnum:requiredFeatureGate=A;B,enum=x`, markers.DescribesField,
			GateAwareEnum{RequiredFeatureGate: []string{"A", "B"}, Enum: []string{"x"}}},
		{`+openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=1`, markers.DescribesField,
			GateAwareMaxItems{FeatureGate: []string{""}, MaxItems: 1}},
		{`+openshift:validation:FeatureGateAwareXValidation:featureGate=Example,rule="has(oldSelf.a) ? has(self.a) : true",message="a may not be removed once set"`, markers.DescribesType,
			GateAwareXValidation{FeatureGate: []string{"Example"}, Rule: "has(oldSelf.a) ? has(self.a) : true", Message: "a may not be removed once set"}},
		{`+openshift:validation:FeatureGateAwareXValidation:requiredFeatureGate=A;B,rule="self.x == oldSelf.x",reason=FieldValueForbidden,fieldPath=.x,optionalOldSelf=true,messageExpression="'bad'"`, markers.DescribesField,
			GateAwareXValidation{RequiredFeatureGate: []string{"A", "B"}, Rule: "self.x == oldSelf.x", Reason: "FieldValueForbidden", FieldPath: ".x", OptionalOldSelf: &yes, MessageExpression: "'bad'"}},
		{"+openshift:api-approved.openshift.io=https://github.com/openshift/api/pull/123", markers.DescribesType, RawValue("https://github.com/openshift/api/pull/123")},
		{"+openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=01", markers.DescribesType,
			FilePattern{CVORunLevel: "0000_50", OperatorName: "my-operator", OperatorOrdering: "01"}},
		{"+openshift:file-pattern=operatorOrdering=01", markers.DescribesType, FilePattern{OperatorOrdering: "01"}},
		{"+openshift:file-pattern=operatorName=etcd,operatorComponent=fencing,extra=1", markers.DescribesType,
			FilePattern{OperatorName: "etcd", Unknown: []string{"operatorComponent", "extra"}}},
		{`+openshift:validation:FeatureGateAwareXValidation:featureGate=A,rule="self.a, b",severity=Warning,message="m"`, markers.DescribesField,
			GateAwareXValidation{FeatureGate: []string{"A"}, Rule: "self.a, b", Message: "m", unknown: []string{"severity"}}},
		{`+openshift:validation:FeatureGateAwareEnum:featureGate=A,enum={x,y},owner=me`, markers.DescribesType,
			GateAwareEnum{FeatureGate: []string{"A"}, Enum: []string{"x", "y"}, unknown: []string{"owner"}}},
		{`+openshift:validation:FeatureGateAwareMaxItems:since=4.18,featureGate=A,maxItems=3`, markers.DescribesField,
			GateAwareMaxItems{FeatureGate: []string{"A"}, MaxItems: 3, unknown: []string{"since"}}},
		{"+openshift:capability=Console", markers.DescribesType, RawValue("Console")},
		{"+openshift:compatibility-gen:level=1", markers.DescribesType, 1},
		{"+enum", markers.DescribesType, Enum{}},
		{"+enum", markers.DescribesField, Enum{}},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			got, err := parse(t, c.raw, c.target)
			if err != nil {
				t.Fatalf("parse error: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ raw, wantErr string }{
		{"+openshift:file-pattern=cvoRunLevel", `expected key=value`},
		{"+openshift:file-pattern=cvoRunLevel=1,cvoRunLevel=2", `given twice`},
		{`+openshift:validation:FeatureGateAwareMaxItems:featureGate=A,maxItems=x`, ``},
		// Without enumm, enum is missing: the error names the unknown argument.
		{`+openshift:validation:FeatureGateAwareEnum:featureGate=A,enumm=x`, `unknown argument "enumm"`},
	}
	for _, c := range cases {
		t.Run(c.raw, func(t *testing.T) {
			_, err := parse(t, c.raw, markers.DescribesType)
			if err == nil {
				t.Fatal("expected an error")
			}
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("error %q lacks %q", err, c.wantErr)
			}
		})
	}
}

func TestConditionActive(t *testing.T) {
	cases := []struct {
		name string
		c    Condition
		set  GateSet
		want bool
	}{
		{"ungated marker in ungated manifest", Condition{FeatureGate: []string{""}}, NewGateSet(""), true},
		{"ungated marker in gated manifest", Condition{FeatureGate: []string{""}}, NewGateSet("A"), false},
		{"any of featureGate", Condition{FeatureGate: []string{"A", "B"}}, NewGateSet("B"), true},
		{"none of featureGate", Condition{FeatureGate: []string{"A", "B"}}, NewGateSet("C"), false},
		{"required all present", Condition{RequiredFeatureGate: []string{"A", "B"}}, NewGateSet("A", "B"), true},
		{"required one missing", Condition{RequiredFeatureGate: []string{"A", "B"}}, NewGateSet("A"), false},
		{"required decides over featureGate", Condition{FeatureGate: []string{"C"}, RequiredFeatureGate: []string{"A"}}, NewGateSet("C"), false},
		{"empty condition never active", Condition{}, NewGateSet("A"), false},
	}
	for _, c := range cases {
		if got := c.c.Active(c.set); got != c.want {
			t.Errorf("%s: Active = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestConditionEntries(t *testing.T) {
	got := Condition{FeatureGate: []string{"", "A", "B"}, RequiredFeatureGate: []string{"D", "C"}}.Entries()
	want := []string{"A", "B", "D+C"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Entries = %v, want %v", got, want)
	}
}
