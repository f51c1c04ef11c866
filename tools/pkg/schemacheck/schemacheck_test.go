package schemacheck

import (
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
)

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		enabled, disabled []string
		want, err         string
	}{
		{want: "ListsMustHaveSSATags MustHaveStatus MustNotExceedCostBudget NoEnumRemoval NoFieldRemoval NoNewRequiredFields"},
		{enabled: []string{"NoBools"}, disabled: []string{"NoFieldRemoval", "MustHaveStatus"}, want: "ListsMustHaveSSATags MustNotExceedCostBudget NoBools NoEnumRemoval NoNewRequiredFields"},
		{enabled: []string{"NoBools"}, disabled: []string{"NoBools"}, want: "ListsMustHaveSSATags MustHaveStatus MustNotExceedCostBudget NoEnumRemoval NoFieldRemoval NoNewRequiredFields"},
		{enabled: []string{"NoBool", "Nope"}, err: "unknown comparator(s) NoBool, Nope; known comparators: ConditionsMustHaveProperSSATags,"},
	} {
		got, err := Resolve(tc.enabled, tc.disabled)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Resolve(%v, %v): error %v, want %q", tc.enabled, tc.disabled, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("Resolve(%v, %v) = %v, %v; want %s", tc.enabled, tc.disabled, got, err, tc.want)
		}
	}
}

type props = map[string]apiextensionsv1.JSONSchemaProps

func crd(spec props, status ...props) *apiextensionsv1.CustomResourceDefinition {
	root := props{"spec": {Type: "object", Properties: spec}}
	if len(status) > 0 {
		root["status"] = apiextensionsv1.JSONSchemaProps{Type: "object", Properties: status[0]}
	}
	return &apiextensionsv1.CustomResourceDefinition{Spec: apiextensionsv1.CustomResourceDefinitionSpec{
		Group: "example.io", Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget", ListKind: "WidgetList", Singular: "widget"},
		Scope: apiextensionsv1.ClusterScoped,
		Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: root}}}},
	}}
}

func ptr(s string) *string { return &s }

// TestNewFieldComparators: each comparator of new fields flags a new field
// of its kind and leaves the same field alone when the old CRD had it.
func TestNewFieldComparators(t *testing.T) {
	strs := &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}
	condition := &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props{
		"type": {Type: "string"}, "status": {Type: "string"}, "reason": {Type: "string"}, "message": {Type: "string"},
		"lastTransitionTime": {Type: "string"}, "observedGeneration": {Type: "integer"},
	}}}
	for _, tc := range []struct {
		name  string
		field apiextensionsv1.JSONSchemaProps
		want  []string
	}{
		{"boolean", apiextensionsv1.JSONSchemaProps{Type: "boolean"}, []string{"NoBools ^.spec.f"}},
		{"float", apiextensionsv1.JSONSchemaProps{Type: "number"}, []string{"NoFloats ^.spec.f"}},
		{"map", apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}, []string{"NoMaps ^.spec.f"}},
		{"untagged list", apiextensionsv1.JSONSchemaProps{Type: "array", Items: strs}, []string{"ListsMustHaveSSATags ^.spec.f"}},
		{"empty list tag", apiextensionsv1.JSONSchemaProps{Type: "array", Items: strs, XListType: ptr("")}, []string{"ListsMustHaveSSATags ^.spec.f"}},
		{"tagged list", apiextensionsv1.JSONSchemaProps{Type: "array", Items: strs, XListType: ptr("set")}, nil},
		{"integer", apiextensionsv1.JSONSchemaProps{Type: "integer", Format: "int64"}, nil},
		{"uint", apiextensionsv1.JSONSchemaProps{Type: "integer", Format: "uint"}, []string{"NoUints ^.spec.f"}},
		{"uint64, which the reference passes", apiextensionsv1.JSONSchemaProps{Type: "integer", Format: "uint64"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Known)
			if err != nil {
				t.Fatal(err)
			}
			old := crd(props{"a": {Type: "string"}})
			got := lines(c.newFields(old, crd(props{"a": {Type: "string"}, "f": tc.field})))
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("new field: got %q, want %q", got, tc.want)
			}
			if got := c.newFields(crd(props{"f": tc.field}), crd(props{"f": tc.field})); len(got) > 0 {
				t.Errorf("existing field: got %v, want nothing", got)
			}
		})
	}
	c, _ := New(Known)
	bad := c.newFields(nil, crd(props{}, props{"conditions": {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", Properties: props{"type": {Type: "string"}}}}}}))
	var msgs []string
	for _, d := range bad {
		if d.Check == ConditionsMustHaveProperSSATags {
			msgs = append(msgs, d.Message)
		}
	}
	want := "a conditions list must set x-kubernetes-list-type: map|a conditions list must set x-kubernetes-list-map-keys: [type]|a condition must have the fields of metav1.Condition; missing: lastTransitionTime, message, observedGeneration, reason, status"
	if strings.Join(msgs, "|") != want {
		t.Errorf("conditions: got %q", msgs)
	}
	good := c.newFields(nil, crd(props{}, props{"conditions": {Type: "array", Items: condition, XListType: ptr("map"), XListMapKeys: []string{"type"}}}))
	if len(good) > 0 {
		t.Errorf("proper conditions: got %v", good)
	}
}

func lines(ds []compat.Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Check+" "+d.Path)
	}
	return out
}

// TestCostBudget: a new rule over the per-rule budget is reported (and so
// is the version's total), the same
// rule already in the old CRD is not.
func TestCostBudget(t *testing.T) {
	list := apiextensionsv1.JSONSchemaProps{Type: "array", XListType: ptr("atomic"),
		Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}
	expensive := list
	expensive.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.all(x, self.all(y, self.all(z, x + y + z != '')))"}}
	got := costs(crd(props{"l": list}), crd(props{"l": expensive}))
	// The rule over its budget, and the version's total over its own.
	if len(got) != 2 || got[0].Check != MustNotExceedCostBudget || !strings.Contains(got[0].Message, "per rule") || !strings.Contains(got[1].Message, "total cost") {
		t.Fatalf("new expensive rule: got %v", got)
	}
	if got := costs(crd(props{"l": expensive}), crd(props{"l": expensive})); len(got) > 0 {
		t.Errorf("unchanged rule: got %v", got)
	}
}

// TestMustHaveStatus follows crd-schema-checker's published cases: status
// in the schema without the status subresource fails on create, on an
// update that adds status, and in a new version; a version that already
// lacked it, and a schema without status, pass.
func TestMustHaveStatus(t *testing.T) {
	withSubresource := func(c *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
		c.Spec.Versions[0].Subresources = &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}}
		return c
	}
	withV2 := func(c *apiextensionsv1.CustomResourceDefinition) *apiextensionsv1.CustomResourceDefinition {
		v2 := c.Spec.Versions[0]
		v2.Name, v2.Storage = "v2", false
		c.Spec.Versions = append(c.Spec.Versions, v2)
		return c
	}
	status := props{"phase": {Type: "string"}}
	for _, tc := range []struct {
		name     string
		old, cur *apiextensionsv1.CustomResourceDefinition
		want     string
	}{
		{"missing on create", nil, crd(props{}, status), "v1 ^.status"},
		{"no status on create", nil, crd(props{}), ""},
		{"missing on update", crd(props{}), crd(props{}, status), "v1 ^.status"},
		{"subresource removed", withSubresource(crd(props{}, status)), crd(props{}, status), "v1 ^.status"},
		{"already missing", crd(props{}, status), crd(props{}, status), ""},
		{"missing on a new version", crd(props{}, status), withV2(crd(props{}, status)), "v2 ^.status"},
		{"with the subresource", nil, withSubresource(crd(props{}, status)), ""},
	} {
		var got []string
		for _, d := range missingStatus(tc.old, tc.cur) {
			if d.Check != MustHaveStatus {
				t.Errorf("%s: check %q", tc.name, d.Check)
			}
			got = append(got, d.Version+" "+d.Path)
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	c, _ := New([]string{MustHaveStatus})
	if got := c.Compare("widgets.example.io", nil, crd(props{}), crd(props{}, status)); len(got) != 1 {
		t.Errorf("Compare with MustHaveStatus enabled: got %v, want one finding", got)
	}
	c, _ = New([]string{NoFieldRemoval})
	if got := c.Compare("widgets.example.io", nil, crd(props{}), crd(props{}, status)); len(got) != 0 {
		t.Errorf("Compare with MustHaveStatus disabled: got %v", got)
	}
}
