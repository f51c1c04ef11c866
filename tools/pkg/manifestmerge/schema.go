package manifestmerge

import (
	"errors"
	"fmt"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/applyconfiguration"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// Names of the structured-merge-diff types the pipeline changes. They are
// the OpenAPI model names of the apiextensions.k8s.io/v1 Go types.
const (
	crdTypeName       = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
	crdSpecTypeName   = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec"
	crdVersionName    = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion"
	schemaPropsName   = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"
	validationRuleNam = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule"
)

// crdAPIVersion is the API version every manifest of the stage has, and the
// version the field managers of a merge record.
const crdAPIVersion = "apiextensions.k8s.io/v1"

// crdKind is the kind every manifest of the stage has.
const crdKind = "CustomResourceDefinition"

// listChange describes one deliberate change to an upstream list type: the
// field, the shape upstream must have (so that a Kubernetes update that
// moves it is noticed) and the shape the pipeline uses.
type listChange struct {
	typeName, field string
	upstream        schema.List
	pipeline        schema.List
}

// pipelineListChanges are the two changes the merge makes to the upstream
// CustomResourceDefinition schema:
//
//   - spec.versions becomes a map keyed by name, so that an override can add
//     to a generated version (a scale subresource, say) instead of replacing
//     the whole list;
//   - x-kubernetes-validations becomes atomic, so that the rules of a more
//     specific manifest replace the rules of a node instead of accumulating
//     next to them.
var pipelineListChanges = []listChange{versionsByName, validationsAtomic}

var (
	versionsByName = listChange{
		typeName: crdSpecTypeName, field: "versions",
		upstream: schema.List{ElementType: named(crdVersionName), ElementRelationship: schema.Atomic},
		pipeline: schema.List{ElementType: named(crdVersionName), ElementRelationship: schema.Associative, Keys: []string{"name"}},
	}
	validationsAtomic = listChange{
		typeName: schemaPropsName, field: "x-kubernetes-validations",
		upstream: validationsUpstream,
		pipeline: schema.List{ElementType: named(validationRuleNam), ElementRelationship: schema.Atomic},
	}
	// validationsByRule keeps upstream's x-kubernetes-validations, a list
	// keyed by rule; as a change it only checks that upstream still has
	// that shape.
	validationsByRule = listChange{
		typeName: schemaPropsName, field: "x-kubernetes-validations",
		upstream: validationsUpstream,
		pipeline: validationsUpstream,
	}
	validationsUpstream = schema.List{ElementType: named(validationRuleNam), ElementRelationship: schema.Associative, Keys: []string{"rule"}}
)

func named(name string) schema.TypeRef { return schema.TypeRef{NamedType: &name} }

// upstreamCRDSchema returns the structured-merge-diff schema Kubernetes
// itself uses for server-side apply of CustomResourceDefinitions. It is the
// schema apiextensions-apiserver generates from its OpenAPI definitions and
// ships with its apply configurations; the type converter built on it is the
// only exported way to reach it, so the schema is taken from a typed value
// of an empty CRD.
func upstreamCRDSchema() (*schema.Schema, error) {
	scheme := runtime.NewScheme()
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		return nil, fmt.Errorf("registering apiextensions.k8s.io/v1: %w", err)
	}
	converter := applyconfiguration.NewTypeConverter(scheme)
	empty := &unstructured.Unstructured{Object: map[string]any{"apiVersion": crdAPIVersion, "kind": crdKind}}
	tv, err := converter.ObjectToTyped(empty)
	if err != nil {
		return nil, fmt.Errorf("resolving the upstream CustomResourceDefinition type: %w", err)
	}
	if n := tv.TypeRef().NamedType; n == nil || *n != crdTypeName {
		return nil, fmt.Errorf("upstream CustomResourceDefinition type is not named %s", crdTypeName)
	}
	return tv.Schema(), nil
}

// pipelineSchema returns a copy of upstream with pipelineListChanges
// applied. upstream is not modified. It fails when a changed field is
// missing or no longer has the expected upstream shape.
func pipelineSchema(upstream *schema.Schema) (*schema.Schema, error) {
	return changedSchema(upstream, pipelineListChanges)
}

// changedSchema returns a copy of upstream with changes applied.
func changedSchema(upstream *schema.Schema, changes []listChange) (*schema.Schema, error) {
	types := make([]schema.TypeDef, len(upstream.Types))
	copy(types, upstream.Types)
	var errs []error
	for _, ch := range changes {
		if err := applyListChange(types, ch); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("the upstream CustomResourceDefinition schema changed shape; review docs/reference-rules.md#the-merge-and-its-list-types before updating the pipeline: %w", errors.Join(errs...))
	}
	return &schema.Schema{Types: types}, nil
}

func applyListChange(types []schema.TypeDef, ch listChange) error {
	for i := range types {
		if types[i].Name != ch.typeName {
			continue
		}
		if types[i].Map == nil {
			return fmt.Errorf("type %s is not a map", ch.typeName)
		}
		old := types[i].Map
		// A new Map: the upstream one caches its field index.
		m := &schema.Map{
			Fields:              append([]schema.StructField(nil), old.Fields...),
			Unions:              old.Unions,
			ElementType:         old.ElementType,
			ElementRelationship: old.ElementRelationship,
		}
		for j := range m.Fields {
			f := &m.Fields[j]
			if f.Name != ch.field {
				continue
			}
			if f.Type.Inlined.List == nil || !f.Type.Inlined.List.Equals(&ch.upstream) {
				return fmt.Errorf("field %s of %s is %s, expected %s", ch.field, ch.typeName, describeTypeRef(f.Type), describeList(&ch.upstream))
			}
			list := ch.pipeline
			list.Keys = append([]string(nil), ch.pipeline.Keys...)
			f.Type = schema.TypeRef{Inlined: schema.Atom{List: &list}}
			types[i].Map = m
			return nil
		}
		return fmt.Errorf("type %s has no field %s", ch.typeName, ch.field)
	}
	return fmt.Errorf("type %s not found", ch.typeName)
}

func describeTypeRef(t schema.TypeRef) string {
	switch {
	case t.NamedType != nil:
		return "a reference to " + *t.NamedType
	case t.Inlined.List != nil:
		return describeList(t.Inlined.List)
	case t.Inlined.Map != nil:
		return "a map"
	case t.Inlined.Scalar != nil:
		return "a scalar"
	}
	return "untyped"
}

func describeList(l *schema.List) string {
	article := "a"
	if l.ElementRelationship == schema.Associative || l.ElementRelationship == schema.Atomic {
		article = "an"
	}
	s := fmt.Sprintf("%s %s list", article, l.ElementRelationship)
	if len(l.Keys) > 0 {
		s += fmt.Sprintf(" keyed by %v", l.Keys)
	}
	if l.ElementType.NamedType != nil {
		s += " of " + *l.ElementType.NamedType
	}
	return s
}

// pipelineCRDType is the pipeline's CustomResourceDefinition type, built
// once per process.
var pipelineCRDType = sync.OnceValues(func() (typed.ParseableType, error) {
	return crdTypeWith(pipelineListChanges)
})

// ruleKeyedCRDType is the CustomResourceDefinition type of the eras before
// 2026-03-18: spec.versions keyed by name as in
// pipelineCRDType, x-kubernetes-validations keyed by rule as upstream has
// it, so that a later manifest's rules join the earlier ones.
var ruleKeyedCRDType = sync.OnceValues(func() (typed.ParseableType, error) {
	return crdTypeWith([]listChange{versionsByName, validationsByRule})
})

func crdTypeWith(changes []listChange) (typed.ParseableType, error) {
	upstream, err := upstreamCRDSchema()
	if err != nil {
		return typed.ParseableType{}, err
	}
	s, err := changedSchema(upstream, changes)
	if err != nil {
		return typed.ParseableType{}, err
	}
	return typed.ParseableType{Schema: s, TypeRef: named(crdTypeName)}, nil
}
