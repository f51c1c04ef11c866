package suite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// describedCRD has a description (each with "DOC" in it) on schema nodes
// of every kind that nests schemas, and a property named description at
// several depths, each with a description of its own.
const describedCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.example.com
spec:
  group: example.com
  names: {kind: Thing, listKind: ThingList, plural: things, singular: thing}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Size, type: string, jsonPath: .spec.size, description: "a column, not a schema"}
    schema:
      openAPIV3Schema:
        description: DOC top
        type: object
        properties:
          spec:
            description: DOC spec
            type: object
            x-kubernetes-validations:
            - {rule: "self.size != 'x'", message: not x}
            properties:
              description: {description: DOC the spec's description field, type: string, maxLength: 10}
              size: {description: DOC size, type: string, enum: [a, b]}
              list:
                description: DOC list
                type: array
                items:
                  description: DOC item
                  type: object
                  properties:
                    description: {description: DOC an item's description field, type: string}
              byName:
                description: DOC map
                type: object
                additionalProperties:
                  description: DOC value
                  type: object
                  properties:
                    description:
                      description: DOC a value's description field
                      type: object
                      properties:
                        description: {description: DOC the innermost, type: string}
              choice:
                description: DOC choice
                type: object
                x-kubernetes-preserve-unknown-fields: true
                allOf: [{description: DOC allOf}]
                anyOf: [{description: DOC anyOf}]
                oneOf: [{description: DOC oneOf}]
                not: {description: DOC not}
`

func decodeOne(t *testing.T, data string) *server.CRD {
	t.Helper()
	crds, err := server.DecodeCRDs([]byte(data))
	if err != nil || len(crds) != 1 {
		t.Fatalf("decoding the CRD: %v (%d CRDs)", err, len(crds))
	}
	return crds[0]
}

func schemaJSON(t *testing.T, crd *server.CRD) string {
	t.Helper()
	data, err := json.Marshal(crd.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestWithoutDescriptions checks that every schema node loses its
// description, that properties named description stay with all they
// hold but that, and that the CRD given is left as it was.
func TestWithoutDescriptions(t *testing.T) {
	crd := decodeOne(t, describedCRD)
	before := schemaJSON(t, crd)
	got := withoutDescriptions(crd)
	if after := schemaJSON(t, crd); after != before {
		t.Errorf("the CRD given changed:\n%s\nwas\n%s", after, before)
	}
	if doc := strings.Count(before, "DOC"); doc != 16 {
		t.Fatalf("the CRD has %d descriptions, want 16: the test's CRD lost some", doc)
	}
	if s := schemaJSON(t, got); strings.Contains(s, "DOC") {
		t.Errorf("descriptions left: %s", s)
	}
	if got.Spec.Versions[0].AdditionalPrinterColumns[0].Description != "a column, not a schema" {
		t.Errorf("the printer column lost its description")
	}
	spec := got.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"]
	fields := map[string]apiextensionsv1.JSONSchemaProps{
		"spec":            spec.Properties["description"],
		"spec.list[]":     spec.Properties["list"].Items.Schema.Properties["description"],
		"spec.byName{}":   spec.Properties["byName"].AdditionalProperties.Schema.Properties["description"],
		"spec.byName{}.d": spec.Properties["byName"].AdditionalProperties.Schema.Properties["description"].Properties["description"],
	}
	for where, field := range fields {
		if field.Type == "" {
			t.Errorf("%s: the property named description is gone", where)
		}
	}
	if max := fields["spec"].MaxLength; max == nil || *max != 10 {
		t.Errorf("spec.description's maxLength is %v, want 10", max)
	}
}

// TestPairContextIgnoresOnlyDescriptions checks that the key of a pair's
// outcomes stays the same when only descriptions change, and changes
// with anything the server acts on.
func TestPairContextIgnoresOnlyDescriptions(t *testing.T) {
	// edit changes the schema of spec.
	type edit func(s *apiextensionsv1.JSONSchemaProps)
	setProp := func(s *apiextensionsv1.JSONSchemaProps, name string, f func(p *apiextensionsv1.JSONSchemaProps)) {
		p := s.Properties[name]
		f(&p)
		s.Properties[name] = p
	}
	cases := []struct {
		name string
		edit edit
		same bool
	}{
		{"descriptions reworded", func(s *apiextensionsv1.JSONSchemaProps) {
			s.Description = "DOC reworded"
			setProp(s, "description", func(p *apiextensionsv1.JSONSchemaProps) { p.Description = "DOC reworded too" })
		}, true},
		{"maxLength", func(s *apiextensionsv1.JSONSchemaProps) {
			setProp(s, "description", func(p *apiextensionsv1.JSONSchemaProps) { n := int64(11); p.MaxLength = &n })
		}, false},
		{"enum value", func(s *apiextensionsv1.JSONSchemaProps) {
			setProp(s, "size", func(p *apiextensionsv1.JSONSchemaProps) { p.Enum = p.Enum[:1] })
		}, false},
		{"CEL rule", func(s *apiextensionsv1.JSONSchemaProps) {
			s.XValidations = apiextensionsv1.ValidationRules{{Rule: "self.size != 'y'", Message: "not x"}}
		}, false},
		{"the type of a field named description", func(s *apiextensionsv1.JSONSchemaProps) {
			setProp(s, "description", func(p *apiextensionsv1.JSONSchemaProps) { p.Type = "integer"; p.MaxLength = nil })
		}, false},
	}
	key := func(crd *server.CRD) string {
		return pairContext(&Variant{File: &CRDFile{Path: "things.crd.yaml", CRD: crd}, Version: "v1"}, &Suite{Name: "Things"})
	}
	was := key(decodeOne(t, describedCRD))
	for _, c := range cases {
		crd := decodeOne(t, describedCRD)
		top := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
		s := top.Properties["spec"]
		c.edit(&s)
		top.Properties["spec"] = s
		if same := key(crd) == was; same != c.same {
			t.Errorf("%s: the key stays the same: %v, want %v", c.name, same, c.same)
		}
	}
}
