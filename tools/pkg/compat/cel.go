package compat

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/validations"
)

// celCheck is the crdify comparator for x-kubernetes-validations, which
// crdify itself leaves to its unhandled-change report. A rule present in
// the new schema of a field but not in the old one (compared by rule text)
// is a finding: an error when existing objects could start failing (the
// rule reads only self, so an object stored before it fails on its next
// update unless ratcheting spares an unchanged field), a warning when the
// rule is a transition rule (it reads oldSelf and is not optional, so it
// only judges changes). Removed rules loosen validation and are not
// reported; edits to message, reason or fieldPath of an unchanged rule are
// not either.
type celCheck struct {
	enforcement config.EnforcementPolicy
}

var (
	_ validations.Validation                                  = (*celCheck)(nil)
	_ validations.Comparator[apiextensionsv1.JSONSchemaProps] = (*celCheck)(nil)
)

func (c *celCheck) Name() string { return CheckCEL }

func (c *celCheck) SetEnforcement(p config.EnforcementPolicy) { c.enforcement = p }

// Compare implements the comparator; like crdify's own, it clears the field
// it handled on both copies so the unhandled-change check ignores it.
func (c *celCheck) Compare(a, b *apiextensionsv1.JSONSchemaProps) validations.ComparisonResult {
	old := map[string]bool{}
	for _, r := range a.XValidations {
		old[r.Rule] = true
	}
	res := validations.ComparisonResult{Name: CheckCEL}
	for _, r := range b.XValidations {
		if old[r.Rule] {
			continue
		}
		if transition(r) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("transition rule added: %q; it only judges changes, existing objects keep validating", r.Rule))
		} else {
			res.Errors = append(res.Errors, fmt.Sprintf("rule added: %q; existing objects that violate it fail their next update", r.Rule))
		}
	}
	a.XValidations, b.XValidations = nil, nil
	switch c.enforcement {
	case config.EnforcementPolicyNone:
		return validations.ComparisonResult{Name: CheckCEL}
	case config.EnforcementPolicyWarn:
		res.Warnings, res.Errors = append(res.Warnings, res.Errors...), nil
	}
	return res
}

// transition reports whether a rule compares with oldSelf and is skipped
// when there is no old value (not optionalOldSelf).
func transition(r apiextensionsv1.ValidationRule) bool {
	optional := r.OptionalOldSelf != nil && *r.OptionalOldSelf
	return strings.Contains(r.Rule, "oldSelf") && !optional
}
