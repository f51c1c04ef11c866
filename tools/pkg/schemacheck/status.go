package schemacheck

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
)

// missingStatus runs MustHaveStatus: a version whose schema has a status
// property must serve it as the status subresource, or status would be
// written by every update of the object. A version that lacked the
// subresource at the base with status in its schema already is left alone
// (the reference does not fail what it cannot fix without a new version).
func missingStatus(old, cur *apiextensionsv1.CustomResourceDefinition) []compat.Difference {
	var out []compat.Difference
	for _, v := range cur.Spec.Versions {
		if !statusWithoutSubresource(v) {
			continue
		}
		if old != nil {
			if ov := version(old, v.Name); ov != nil && statusWithoutSubresource(*ov) {
				continue
			}
		}
		out = append(out, compat.Difference{
			Check:   MustHaveStatus,
			Version: v.Name,
			Path:    "^.status",
			Message: "the schema has status, so the version must have the status subresource (.spec.versions[name=" + v.Name + "].subresources.status)",
		})
	}
	return out
}

// statusWithoutSubresource reports whether v's schema has a top-level
// status property and v has no status subresource.
func statusWithoutSubresource(v apiextensionsv1.CustomResourceDefinitionVersion) bool {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return false
	}
	if _, ok := v.Schema.OpenAPIV3Schema.Properties["status"]; !ok {
		return false
	}
	return v.Subresources == nil || v.Subresources.Status == nil
}

// version returns crd's version called name, or nil.
func version(crd *apiextensionsv1.CustomResourceDefinition, name string) *apiextensionsv1.CustomResourceDefinitionVersion {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == name {
			return &crd.Spec.Versions[i]
		}
	}
	return nil
}
