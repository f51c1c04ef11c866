package manifestmerge

import (
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
)

const (
	namesTypeName  = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionNames"
	statusTypeName = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionStatus"
)

// fieldList returns the list type of field in the named map type.
func fieldList(t *testing.T, s *schema.Schema, typeName, field string) *schema.List {
	t.Helper()
	td, ok := s.FindNamedType(typeName)
	if !ok {
		t.Fatalf("type %s not found", typeName)
	}
	if td.Map == nil {
		t.Fatalf("type %s is not a map", typeName)
	}
	f, ok := td.Map.FindField(field)
	if !ok {
		t.Fatalf("type %s has no field %s", typeName, field)
	}
	if f.Type.Inlined.List == nil {
		t.Fatalf("%s.%s is %s, not an inline list", typeName, field, describeTypeRef(f.Type))
	}
	return f.Type.Inlined.List
}

func upstream(t *testing.T) *schema.Schema {
	t.Helper()
	s, err := upstreamCRDSchema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUpstreamSchemaShape pins the upstream list types that the merge
// relies on (docs/reference-rules.md, "The merge and its list types"). If Kubernetes changes one of them this test fails, and the
// pipeline's merge semantics must be reviewed before updating it.
func TestUpstreamSchemaShape(t *testing.T) {
	up := upstream(t)
	cases := []struct {
		typeName, field string
		relationship    schema.ElementRelationship
		keys            []string
	}{
		{crdSpecTypeName, "versions", schema.Atomic, nil},
		{schemaPropsName, "x-kubernetes-validations", schema.Associative, []string{"rule"}},
		{namesTypeName, "shortNames", schema.Atomic, nil},
		{namesTypeName, "categories", schema.Atomic, nil},
		{crdVersionName, "additionalPrinterColumns", schema.Atomic, nil},
		{crdVersionName, "selectableFields", schema.Atomic, nil},
		{schemaPropsName, "required", schema.Atomic, nil},
		{schemaPropsName, "enum", schema.Atomic, nil},
		{schemaPropsName, "allOf", schema.Atomic, nil},
		{schemaPropsName, "anyOf", schema.Atomic, nil},
		{schemaPropsName, "oneOf", schema.Atomic, nil},
		{schemaPropsName, "x-kubernetes-list-map-keys", schema.Atomic, nil},
		{statusTypeName, "conditions", schema.Associative, []string{"type"}},
	}
	for _, c := range cases {
		l := fieldList(t, up, c.typeName, c.field)
		if l.ElementRelationship != c.relationship || strings.Join(l.Keys, ",") != strings.Join(c.keys, ",") {
			t.Errorf("upstream %s.%s is %s; the merge expects a %s list keyed by %v", c.typeName, c.field, describeList(l), c.relationship, c.keys)
		}
	}
	// Untyped values merge as "deduced": maps key by key, lists atomic.
	props, _ := up.FindNamedType(schemaPropsName)
	for _, field := range []string{"items", "additionalProperties", "default", "example"} {
		f, ok := props.Map.FindField(field)
		if !ok || f.Type.NamedType == nil {
			t.Errorf("JSONSchemaProps.%s is not a named type", field)
			continue
		}
		td, ok := up.FindNamedType(*f.Type.NamedType)
		if !ok || td.Map == nil || td.List == nil || td.Scalar == nil ||
			td.Map.ElementRelationship == schema.Atomic || td.List.ElementRelationship != schema.Atomic {
			t.Errorf("JSONSchemaProps.%s (%s) is no longer untyped with separable maps and atomic lists", field, *f.Type.NamedType)
		}
	}
}

// TestPipelineSchema checks the two deliberate changes, and that nothing
// else differs from upstream.
func TestPipelineSchema(t *testing.T) {
	up := upstream(t)
	before := len(up.Types)
	got, err := pipelineSchema(up)
	if err != nil {
		t.Fatal(err)
	}
	versions := fieldList(t, got, crdSpecTypeName, "versions")
	if versions.ElementRelationship != schema.Associative || strings.Join(versions.Keys, ",") != "name" {
		t.Errorf("spec.versions is %s, want a map keyed by name", describeList(versions))
	}
	rules := fieldList(t, got, schemaPropsName, "x-kubernetes-validations")
	if rules.ElementRelationship != schema.Atomic || len(rules.Keys) != 0 {
		t.Errorf("x-kubernetes-validations is %s, want atomic", describeList(rules))
	}
	// Upstream is untouched.
	if l := fieldList(t, up, crdSpecTypeName, "versions"); l.ElementRelationship != schema.Atomic {
		t.Errorf("pipelineSchema modified the upstream schema: spec.versions is %s", describeList(l))
	}
	if len(got.Types) != before {
		t.Fatalf("pipeline schema has %d types, upstream %d", len(got.Types), before)
	}
	for i := range got.Types {
		g, u := &got.Types[i], &up.Types[i]
		if g.Name != u.Name {
			t.Fatalf("type %d is %s, upstream %s", i, g.Name, u.Name)
		}
		if g.Equals(u) {
			continue
		}
		if g.Name != crdSpecTypeName && g.Name != schemaPropsName {
			t.Errorf("type %s differs from upstream", g.Name)
			continue
		}
		for j := range g.Map.Fields {
			gf, uf := &g.Map.Fields[j], &u.Map.Fields[j]
			if !gf.Equals(uf) && gf.Name != "versions" && gf.Name != "x-kubernetes-validations" {
				t.Errorf("%s.%s differs from upstream", g.Name, gf.Name)
			}
		}
	}
}

// TestPipelineSchemaNoticesUpstreamMoves feeds schemas whose shape moved
// and expects an error naming the field, never a silent change.
func TestPipelineSchemaNoticesUpstreamMoves(t *testing.T) {
	versionsAlreadyMap := func() *schema.Schema {
		s := upstream(t)
		types := append([]schema.TypeDef(nil), s.Types...)
		for i := range types {
			if types[i].Name == crdSpecTypeName {
				m := &schema.Map{ElementType: types[i].Map.ElementType, ElementRelationship: types[i].Map.ElementRelationship}
				for _, f := range types[i].Map.Fields {
					if f.Name == "versions" {
						f.Type = schema.TypeRef{Inlined: schema.Atom{List: &schema.List{
							ElementType: named(crdVersionName), ElementRelationship: schema.Associative, Keys: []string{"name"},
						}}}
					}
					m.Fields = append(m.Fields, f)
				}
				types[i].Map = m
			}
		}
		return &schema.Schema{Types: types}
	}
	withoutProps := func() *schema.Schema {
		s := upstream(t)
		var types []schema.TypeDef
		for _, td := range s.Types {
			if td.Name != schemaPropsName {
				types = append(types, td)
			}
		}
		return &schema.Schema{Types: types}
	}
	cases := []struct {
		name   string
		schema *schema.Schema
		want   string
	}{
		{"versions keyed upstream", versionsAlreadyMap(), "field versions of " + crdSpecTypeName + " is an associative list keyed by [name]"},
		{"JSONSchemaProps renamed", withoutProps(), "type " + schemaPropsName + " not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := pipelineSchema(c.schema)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "changed shape") {
				t.Errorf("error = %v; want it to contain %q", err, c.want)
			}
		})
	}
}
