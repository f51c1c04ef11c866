package suite

import (
	"github.com/gatedcrd/gatedcrd/apitest/server"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// withoutDescriptions returns a copy of crd whose schemas, in every
// version, have no description: the API server reads descriptions for
// nothing it does with an object (validation, defaulting, pruning, CEL
// and their messages), so two CRDs that differ only there behave alike.
// Only the description of schema nodes goes: a property named
// "description" is a field of the object and stays, and so does every
// other part of the CRD (printer columns' descriptions among them).
func withoutDescriptions(crd *server.CRD) *server.CRD {
	if crd == nil {
		return nil
	}
	out := crd.DeepCopy()
	for i := range out.Spec.Versions {
		if v := out.Spec.Versions[i].Schema; v != nil {
			stripDescriptions(v.OpenAPIV3Schema)
		}
	}
	return out
}

// stripDescriptions clears the description of s and of every schema
// nested in it.
func stripDescriptions(s *apiextensionsv1.JSONSchemaProps) {
	if s == nil {
		return
	}
	s.Description = ""
	stripMap(s.Properties)
	stripMap(s.PatternProperties)
	stripMap(s.Definitions)
	stripSlice(s.AllOf)
	stripSlice(s.AnyOf)
	stripSlice(s.OneOf)
	stripDescriptions(s.Not)
	if s.Items != nil {
		stripDescriptions(s.Items.Schema)
		stripSlice(s.Items.JSONSchemas)
	}
	if s.AdditionalProperties != nil {
		stripDescriptions(s.AdditionalProperties.Schema)
	}
	if s.AdditionalItems != nil {
		stripDescriptions(s.AdditionalItems.Schema)
	}
	for name, dep := range s.Dependencies {
		stripDescriptions(dep.Schema)
		s.Dependencies[name] = dep
	}
}

func stripMap(m map[string]apiextensionsv1.JSONSchemaProps) {
	for name, s := range m {
		stripDescriptions(&s)
		m[name] = s
	}
}

func stripSlice(list []apiextensionsv1.JSONSchemaProps) {
	for i := range list {
		stripDescriptions(&list[i])
	}
}
