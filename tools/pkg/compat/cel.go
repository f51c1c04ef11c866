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
// only judges changes). An added rule with the message of a removed one is
// reported as that rule changed. Removed rules loosen validation and are not
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
	old, kept := map[string]bool{}, map[string]bool{}
	for _, r := range a.XValidations {
		old[r.Rule] = true
	}
	for _, r := range b.XValidations {
		kept[r.Rule] = true
	}
	// A removed rule with the message of an added one was changed.
	replaced := map[string]string{}
	for _, r := range a.XValidations {
		if !kept[r.Rule] && r.Message != "" {
			replaced[r.Message] = r.Rule
		}
	}
	res := validations.ComparisonResult{Name: CheckCEL}
	for _, r := range b.XValidations {
		if old[r.Rule] {
			continue
		}
		what := fmt.Sprintf("rule added: %q", r.Rule)
		if before, ok := replaced[r.Message]; ok && r.Message != "" {
			what = fmt.Sprintf("rule changed: %q -> %q", before, r.Rule)
		}
		if transition(r) {
			res.Warnings = append(res.Warnings, "transition "+what+"; it only judges changes, existing objects keep validating")
		} else {
			res.Errors = append(res.Errors, what+"; existing objects that violate it fail their next update")
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
