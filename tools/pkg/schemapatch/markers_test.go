package schemapatch

import (
	"reflect"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

func TestBindMarkersLeavesSharedValuesAlone(t *testing.T) {
	plain := crdmarkers.MinLength(1)
	values := markers.MarkerValues{
		"kubebuilder:validation:MinLength": {plain},
		markerdefs.GateAwareEnumName: {
			markerdefs.GateAwareEnum{FeatureGate: []string{""}, Enum: []string{"a"}},
			markerdefs.GateAwareEnum{FeatureGate: []string{"A"}, Enum: []string{"a", "b"}},
		},
	}
	snapshot := markers.MarkerValues{}
	for k, v := range values {
		snapshot[k] = append([]any(nil), v...)
	}
	got, problems := bindMarkers(values, markerdefs.NewGateSet("A"), nil)
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	if !reflect.DeepEqual(values, snapshot) {
		t.Fatal("bindMarkers modified its input")
	}
	want := markers.MarkerValues{
		"kubebuilder:validation:MinLength": {plain},
		markerdefs.GateAwareEnumName:       {boundEnum{values: []string{"a", "b"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bound = %#v, want %#v", got, want)
	}

	untouched := markers.MarkerValues{"kubebuilder:validation:MinLength": {plain}}
	if got, _ := bindMarkers(untouched, markerdefs.NewGateSet("A"), nil); reflect.ValueOf(got).Pointer() != reflect.ValueOf(untouched).Pointer() {
		t.Error("a map without FeatureGate-aware markers should be returned as is, not copied")
	}
}

func TestBindMarkersActivation(t *testing.T) {
	xv := func(rule string, fg, req []string) markerdefs.GateAwareXValidation {
		return markerdefs.GateAwareXValidation{FeatureGate: fg, RequiredFeatureGate: req, Rule: rule}
	}
	values := markers.MarkerValues{markerdefs.GateAwareXValidationNm: {
		xv("ungated", []string{""}, nil),
		xv("a", []string{"A"}, nil),
		xv("a-or-b", []string{"A", "B"}, nil),
		xv("a-and-b", nil, []string{"A", "B"}),
		xv("b", []string{"B"}, nil),
	}}
	cases := []struct {
		gates markerdefs.GateSet
		want  []string
	}{
		{markerdefs.NewGateSet(""), []string{"ungated"}},
		{markerdefs.NewGateSet(), nil},
		{markerdefs.NewGateSet("A"), []string{"a", "a-or-b"}},
		{markerdefs.NewGateSet("B"), []string{"a-or-b", "b"}},
		{markerdefs.NewGateSet("A", "B"), []string{"a", "a-or-b", "a-and-b", "b"}},
	}
	for _, c := range cases {
		got, _ := bindMarkers(values, c.gates, nil)
		var rules []string
		for _, v := range got[markerdefs.GateAwareXValidationNm] {
			rules = append(rules, v.(boundXValidation).rule.Rule)
		}
		if !reflect.DeepEqual(rules, c.want) {
			t.Errorf("gates %v: active rules %v, want %v (in source order)", c.gates.Sorted(), rules, c.want)
		}
		if c.want == nil {
			if _, ok := got[markerdefs.GateAwareXValidationNm]; ok {
				t.Errorf("gates %v: marker name kept with no active value", c.gates.Sorted())
			}
		}
	}
}

func TestFieldIncluded(t *testing.T) {
	gated := func(lines ...markerdefs.EnableFeatureGate) markers.MarkerValues {
		var vals []any
		for _, l := range lines {
			vals = append(vals, l)
		}
		return markers.MarkerValues{markerdefs.EnableFeatureGateName: vals}
	}
	cases := []struct {
		name   string
		values markers.MarkerValues
		gates  markerdefs.GateSet
		want   bool
	}{
		{"no marker, ungated", markers.MarkerValues{}, markerdefs.NewGateSet(""), true},
		{"no marker, no gates at all", markers.MarkerValues{}, markerdefs.NewGateSet(), true},
		{"gated, gate on", gated(markerdefs.EnableFeatureGate{"A"}), markerdefs.NewGateSet("A"), true},
		{"gated, ungated manifest", gated(markerdefs.EnableFeatureGate{"A"}), markerdefs.NewGateSet(""), false},
		{"gated, other gate", gated(markerdefs.EnableFeatureGate{"A"}), markerdefs.NewGateSet("B"), false},
		{"two marker lines are pooled (second)", gated(markerdefs.EnableFeatureGate{"A"}, markerdefs.EnableFeatureGate{"B"}), markerdefs.NewGateSet("B"), true},
		{"two marker lines are pooled (first)", gated(markerdefs.EnableFeatureGate{"A"}, markerdefs.EnableFeatureGate{"B"}), markerdefs.NewGateSet("A", "C"), true},
	}
	for _, c := range cases {
		got, problems := fieldIncluded(c.values, c.gates)
		if len(problems) != 0 {
			t.Errorf("%s: problems %v", c.name, problems)
		}
		if got != c.want {
			t.Errorf("%s: included = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestBoundEnumReplacesEnumWithJSONStrings(t *testing.T) {
	s := &apiextensionsv1.JSONSchemaProps{Type: "string", Enum: []apiextensionsv1.JSON{{Raw: []byte(`"old"`)}}}
	if err := (boundEnum{values: []string{"", "True", "a\"b"}}).ApplyToSchema(nil, s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range s.Enum {
		got = append(got, string(v.Raw))
	}
	if want := []string{`""`, `"True"`, `"a\"b"`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("enum = %v, want %v", got, want)
	}
}

func TestBoundMaxItems(t *testing.T) {
	arr := &apiextensionsv1.JSONSchemaProps{Type: "array"}
	if err := (boundMaxItems{maxItems: 3}).ApplyToSchema(nil, arr); err != nil || arr.MaxItems == nil || *arr.MaxItems != 3 {
		t.Fatalf("array: err %v, maxItems %v", err, arr.MaxItems)
	}
	str := &apiextensionsv1.JSONSchemaProps{Type: "string"}
	err := (boundMaxItems{maxItems: 3}).ApplyToSchema(nil, str)
	if err == nil || !strings.Contains(err.Error(), "+openshift:validation:FeatureGateAwareMaxItems: must apply maxitem to an array") {
		t.Fatalf("string without reporter: err = %v", err)
	}
	var reported error
	err = (boundMaxItems{maxItems: 3, report: func(e error) { reported = e }}).ApplyToSchema(nil, str)
	if err != nil || reported == nil || str.MaxItems != nil {
		t.Fatalf("string with reporter: err %v, reported %v, maxItems %v", err, reported, str.MaxItems)
	}
}

func TestBoundXValidationMatchesUpstream(t *testing.T) {
	yes := true
	rule := crdmarkers.XValidation{Rule: "self.a", Message: "m", MessageExpression: "'e'", Reason: "FieldValueForbidden", FieldPath: ".a", OptionalOldSelf: &yes}
	var want, got apiextensionsv1.JSONSchemaProps
	if err := rule.ApplyToSchema(nil, &want); err != nil {
		t.Fatal(err)
	}
	if err := (boundXValidation{rule: rule}).ApplyToSchema(nil, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("bound rule %+v, upstream %+v", got.XValidations, want.XValidations)
	}
	if p := (boundXValidation{}).ApplyPriority(); p >= (crdmarkers.XValidation{}).ApplyPriority() {
		t.Fatalf("gated rules must apply before plain ones: priority %d vs %d", p, (crdmarkers.XValidation{}).ApplyPriority())
	}
	bad := boundXValidation{rule: crdmarkers.XValidation{Rule: "x", Reason: "Nope"}}
	if err := bad.ApplyToSchema(nil, &got); err == nil || !strings.HasPrefix(err.Error(), "+"+markerdefs.GateAwareXValidationNm+": invalid reason") {
		t.Fatalf("invalid reason: err = %v", err)
	}
	var reported error
	bad.report = func(e error) { reported = e }
	if err := bad.ApplyToSchema(nil, &got); err != nil || reported == nil {
		t.Fatalf("invalid reason with reporter: err %v, reported %v", err, reported)
	}
}

func TestBindValueProblems(t *testing.T) {
	cases := []struct {
		value any
		want  string
	}{
		{markerdefs.GateAwareEnum{Enum: []string{"a"}}, "names no gate"},
		{markerdefs.GateAwareMaxItems{RequiredFeatureGate: []string{""}, MaxItems: 1}, "requiredFeatureGate: names an empty gate"},
		{markerdefs.GateAwareMaxItems{FeatureGate: []string{"A"}, MaxItems: -1}, "maxItems must not be negative"},
	}
	for _, c := range cases {
		_, err := bindValue(c.value, markerdefs.NewGateSet("A"), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%#v: err = %v, want %q", c.value, err, c.want)
		}
	}
	if _, err := bindValue("not a marker", markerdefs.NewGateSet("A"), nil); err == nil {
		t.Error("a foreign value must be rejected")
	}
}
