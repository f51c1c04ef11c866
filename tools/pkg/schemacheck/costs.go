package schemacheck

import (
	"fmt"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/tools/pkg/compat"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate/admission"
)

// costs reports the CEL rules of cur whose estimated cost exceeds the API
// server's per-rule budget and that old does not have at the same version
// (with the same text), and a per-version total over the budget when old
// was within it. The estimates are the server's own (admission.Costs).
func costs(old, cur *apiextensionsv1.CustomResourceDefinition) []compat.Difference {
	if old != nil && !newRules(old, cur) {
		return nil // estimating is costly; unchanged rules cost what they did
	}
	rules, total, err := estimate(cur)
	if err != nil {
		return []compat.Difference{{Check: MustNotExceedCostBudget, Path: "^", Message: fmt.Sprintf("the CEL costs cannot be estimated: %v", err)}}
	}
	oldRules, oldTotal, _ := estimate(old)
	had := map[[2]string]bool{}
	for _, r := range oldRules {
		had[[2]string{r.Version, r.Rule}] = true
	}
	var out []compat.Difference
	for _, r := range rules {
		if r.Cost > admission.RuleBudget && !had[[2]string{r.Version, r.Rule}] {
			out = append(out, compat.Difference{Check: MustNotExceedCostBudget, Version: r.Version, Path: r.Path,
				Message: fmt.Sprintf("rule %q has an estimated cost of %d, over the API server's budget of %d per rule", r.Rule, r.Cost, admission.RuleBudget), NewField: true})
		}
	}
	if total > admission.CRDBudget && (old == nil || oldTotal <= admission.CRDBudget) {
		out = append(out, compat.Difference{Check: MustNotExceedCostBudget, Path: "^",
			Message: fmt.Sprintf("the CEL rules of a version have an estimated total cost of %d, over the API server's budget of %d", total, admission.CRDBudget), NewField: true})
	}
	return out
}

func estimate(crd *apiextensionsv1.CustomResourceDefinition) ([]admission.RuleCost, uint64, error) {
	if crd == nil {
		return nil, 0, nil
	}
	c := crd.DeepCopy()
	c.APIVersion, c.Kind = apiextensionsv1.SchemeGroupVersion.String(), "CustomResourceDefinition"
	if c.Name == "" {
		c.Name = c.Spec.Names.Plural + "." + c.Spec.Group
	}
	data, err := yaml.Marshal(c)
	if err != nil {
		return nil, 0, err
	}
	return admission.Costs(data)
}

// newRules reports whether cur has a CEL rule that old lacks at the same
// version and path; a version's total can only grow with one.
func newRules(old, cur *apiextensionsv1.CustomResourceDefinition) bool {
	had := map[string]bool{}
	each := func(crd *apiextensionsv1.CustomResourceDefinition, fn func(key string) bool) bool {
		for _, v := range crd.Spec.Versions {
			if v.Schema == nil {
				continue
			}
			found := false
			walk(v.Schema.OpenAPIV3Schema, func(s *apiextensionsv1.JSONSchemaProps, p string) {
				for _, r := range s.XValidations {
					if fn(v.Name + " " + p + " " + r.Rule + " " + r.MessageExpression) {
						found = true
					}
				}
			})
			if found {
				return true
			}
		}
		return false
	}
	each(old, func(k string) bool { had[k] = true; return false })
	return each(cur, func(k string) bool { return !had[k] })
}
