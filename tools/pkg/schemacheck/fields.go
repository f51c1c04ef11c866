package schemacheck

import (
	"fmt"
	"path"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/crdify/pkg/validations"

	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
)

// conditionFields are the properties of metav1.Condition, which a
// conditions list's items must have.
var conditionFields = []string{"lastTransitionTime", "message", "observedGeneration", "reason", "status", "type"}

// newFields runs the comparators that judge fields new in cur: absent at
// the same version and path of old (every field when old is nil or lacks
// the version). Fields that existed are left alone, whatever they are.
func (c *Comparer) newFields(old, cur *apiextensionsv1.CustomResourceDefinition) []compat.Difference {
	var out []compat.Difference
	for _, v := range cur.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		had := paths(old, v.Name)
		add := func(check, p, format string, args ...any) {
			if c.enabled[check] {
				out = append(out, compat.Difference{Check: check, Version: v.Name, Path: p, Message: fmt.Sprintf(format, args...), NewField: true})
			}
		}
		walk(v.Schema.OpenAPIV3Schema, func(s *apiextensionsv1.JSONSchemaProps, p string) {
			if had[p] {
				return
			}
			switch s.Type {
			case "boolean":
				add(NoBools, p, "a new field may not be a boolean: a string enum can gain values later")
			case "integer":
				// "uint" alone: the reference passed format uint64.
				if s.Format == "uint" {
					add(NoUints, p, "a new field may not be an unsigned integer (format uint): Kubernetes APIs use int32 or int64")
				}
			case "number":
				add(NoFloats, p, "a new field may not be a floating-point number: use an integer or a string")
			case "object":
				if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil && len(s.Properties) == 0 {
					add(NoMaps, p, "a new field may not be a map (additionalProperties): use a list keyed by a name")
				}
			case "array":
				if s.XListType == nil || *s.XListType == "" {
					add(ListsMustHaveSSATags, p, "a new list must set x-kubernetes-list-type (atomic, set or map) for server-side apply")
				}
				if path.Ext(p) == ".conditions" {
					for _, m := range conditionProblems(s) {
						add(ConditionsMustHaveProperSSATags, p, "%s", m)
					}
				}
			}
		})
	}
	return out
}

// conditionProblems lists what a conditions list lacks to be merged by
// server-side apply as a list of metav1.Condition keyed by type.
func conditionProblems(s *apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	if s.XListType == nil || *s.XListType != "map" {
		out = append(out, "a conditions list must set x-kubernetes-list-type: map")
	}
	if len(s.XListMapKeys) != 1 || s.XListMapKeys[0] != "type" {
		out = append(out, "a conditions list must set x-kubernetes-list-map-keys: [type]")
	}
	var missing []string
	for _, f := range conditionFields {
		if s.Items == nil || s.Items.Schema == nil {
			missing = append(missing, f)
			continue
		}
		if _, ok := s.Items.Schema.Properties[f]; !ok {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		out = append(out, "a condition must have the fields of metav1.Condition; missing: "+strings.Join(missing, ", "))
	}
	return out
}

// paths lists the schema paths of one version of crd ("^.spec.x"); empty
// when crd is nil. When crd lacks the version, a new version usually copied
// from an older one, the paths of every version of crd count: a field the
// API had is not new for being copied.
func paths(crd *apiextensionsv1.CustomResourceDefinition, version string) map[string]bool {
	out := map[string]bool{}
	if crd == nil {
		return out
	}
	has := false
	for _, v := range crd.Spec.Versions {
		has = has || v.Name == version
	}
	for _, v := range crd.Spec.Versions {
		if (v.Name == version || !has) && v.Schema != nil {
			walk(v.Schema.OpenAPIV3Schema, func(_ *apiextensionsv1.JSONSchemaProps, p string) { out[p] = true })
		}
	}
	return out
}

// walk calls fn for every schema of root with its path, as crdify names
// paths ("^.spec.list[*].name").
func walk(root *apiextensionsv1.JSONSchemaProps, fn func(s *apiextensionsv1.JSONSchemaProps, p string)) {
	validations.SchemaHas(root, field.NewPath("^"), field.NewPath("^"), nil,
		func(s *apiextensionsv1.JSONSchemaProps, _, simple *field.Path, _ []*apiextensionsv1.JSONSchemaProps) bool {
			fn(s, simple.String())
			return false
		})
}
