package schemapatch

import (
	"errors"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// The values below stand in, inside one generation's view of the parsed
// types, for FeatureGate-aware marker values that are active in that
// generation's gate set. Inactive values are simply left out of the view, so
// a bound value never needs to know the gate set: being present is being on.
//
// controller-tools applies any marker value implementing crd.SchemaMarker and
// silently ignores values whose method set does not match, hence the
// compile-time assertions.
var (
	_ crd.SchemaMarker               = boundEnum{}
	_ crd.SchemaMarker               = boundMaxItems{}
	_ crd.SchemaMarker               = boundXValidation{}
	_ crdmarkers.ApplyPriorityMarker = boundXValidation{}
)

// boundEnum is an active +openshift:validation:FeatureGateAwareEnum: it
// replaces the schema's enum with its values, each a JSON string.
type boundEnum struct {
	values []string
}

// ApplyToSchema implements crd.SchemaMarker.
func (m boundEnum) ApplyToSchema(ctx *crdmarkers.SchemaContext, schema *apiextensionsv1.JSONSchemaProps) error {
	vals := make(crdmarkers.Enum, len(m.values))
	for i, v := range m.values {
		vals[i] = v
	}
	return vals.ApplyToSchema(ctx, schema)
}

// boundMaxItems is an active +openshift:validation:FeatureGateAwareMaxItems.
type boundMaxItems struct {
	maxItems int
	// report, when set, receives a misuse of the marker so that it can be
	// reported at the marker's own line; otherwise the error is returned to
	// controller-tools, which reports it at the field or type.
	report func(error)
}

// ApplyToSchema implements crd.SchemaMarker. The schema must be an array.
func (m boundMaxItems) ApplyToSchema(ctx *crdmarkers.SchemaContext, schema *apiextensionsv1.JSONSchemaProps) error {
	if schema.Type != "array" {
		err := fmt.Errorf("must apply maxitem to an array, but the schema here is of type %q", schema.Type)
		if m.report != nil {
			m.report(err)
			return nil
		}
		return fmt.Errorf("+%s: %w", markerdefs.GateAwareMaxItemsName, err)
	}
	return crdmarkers.MaxItems(m.maxItems).ApplyToSchema(ctx, schema)
}

// boundXValidation is an active +openshift:validation:FeatureGateAwareXValidation:
// it appends its CEL rule exactly as +kubebuilder:validation:XValidation does.
type boundXValidation struct {
	rule crdmarkers.XValidation
	// report: see boundMaxItems.
	report func(error)
}

// ApplyToSchema implements crd.SchemaMarker.
func (m boundXValidation) ApplyToSchema(ctx *crdmarkers.SchemaContext, schema *apiextensionsv1.JSONSchemaProps) error {
	if err := m.rule.ApplyToSchema(ctx, schema); err != nil {
		if m.report != nil {
			m.report(err)
			return nil
		}
		return fmt.Errorf("+%s: %w", markerdefs.GateAwareXValidationNm, err)
	}
	return nil
}

// ApplyPriority makes gated rules apply before the default-priority markers,
// so they precede plain XValidation rules in x-kubernetes-validations. Among
// themselves they keep source order: controller-tools sorts stably and the
// values of one marker name stay in the order they were written.
func (boundXValidation) ApplyPriority() crdmarkers.ApplyPriority {
	return crdmarkers.ApplyPriorityFirst
}

// Plain upstream markers whose effect overlaps a FeatureGate-aware one. When
// both sit on the same element, controller-tools applies them in map order,
// which is random, so the combination is rejected.
var overlapping = map[string][]string{
	markerdefs.GateAwareEnumName:     {"kubebuilder:validation:Enum", crdmarkers.K8sEnumTag},
	markerdefs.GateAwareMaxItemsName: {"kubebuilder:validation:MaxItems", "k8s:maxItems"},
}

// markerProblem is a problem with one marker value of an element; index is
// the position of the value among the values of that marker name, in source
// order, so that the report can point at the right comment line.
type markerProblem struct {
	name  string
	index int
	err   error
}

// reportFunc reports a problem found while applying the index-th value of
// marker name to a schema. It may be nil.
type reportFunc func(name string, index int, err error)

// bindMarkers returns the marker values an element has in the gate set
// gates: FeatureGate-aware values are replaced by bound values when active
// and dropped otherwise; every other value is kept as is. The input map is
// shared with every other generation and is never modified: when nothing
// changes it is returned unchanged, otherwise a new map is returned.
func bindMarkers(values markers.MarkerValues, gates markerdefs.GateSet, report reportFunc) (markers.MarkerValues, []markerProblem) {
	var problems []markerProblem
	names := gateAwareNames
	if !hasGateAware(values) {
		return values, nil
	}
	for _, name := range names {
		if len(values[name]) == 0 {
			continue
		}
		for _, plain := range overlapping[name] {
			if len(values[plain]) > 0 {
				problems = append(problems, markerProblem{name: name, err: fmt.Errorf(
					"cannot be combined with +%s on the same field or type: controller-tools would apply the two in an unspecified order; "+
						"express every value with FeatureGate-aware markers (featureGate=\"\" for the ungated schema)", plain)})
			}
		}
	}
	out := make(markers.MarkerValues, len(values))
	for name, vals := range values {
		out[name] = vals
	}
	for _, name := range names {
		vals := values[name]
		if len(vals) == 0 {
			continue
		}
		var bound []any
		for i, v := range vals {
			var onError func(error)
			if report != nil {
				name, i := name, i
				onError = func(err error) { report(name, i, err) }
			}
			b, err := bindValue(v, gates, onError)
			if err != nil {
				problems = append(problems, markerProblem{name: name, index: i, err: err})
				continue
			}
			if b != nil {
				bound = append(bound, b)
			}
		}
		if len(bound) == 0 {
			delete(out, name)
		} else {
			out[name] = bound
		}
	}
	return out, problems
}

// bindValue returns the bound value of one FeatureGate-aware marker value,
// or nil when it is not active in gates. report (optional) receives problems
// found when the value is applied.
func bindValue(v any, gates markerdefs.GateSet, report func(error)) (any, error) {
	ga, ok := v.(markerdefs.GateAware)
	if !ok {
		return nil, fmt.Errorf("unexpected marker value of type %T", v)
	}
	cond := ga.GateCondition()
	if problems := cond.Problems(); len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	if !cond.Active(gates) {
		return nil, nil
	}
	switch m := v.(type) {
	case markerdefs.GateAwareEnum:
		return boundEnum{values: m.Enum}, nil
	case markerdefs.GateAwareMaxItems:
		if m.MaxItems < 0 {
			return nil, fmt.Errorf("maxItems must not be negative, got %d", m.MaxItems)
		}
		return boundMaxItems{maxItems: m.MaxItems, report: report}, nil
	case markerdefs.GateAwareXValidation:
		return boundXValidation{rule: crdmarkers.XValidation{
			Rule:              m.Rule,
			Message:           m.Message,
			MessageExpression: m.MessageExpression,
			Reason:            m.Reason,
			FieldPath:         m.FieldPath,
			OptionalOldSelf:   m.OptionalOldSelf,
		}, report: report}, nil
	}
	return nil, fmt.Errorf("unexpected marker value of type %T", v)
}

// fieldIncluded reports whether a field with the given marker values is part
// of the schema for gates: fields without +openshift:enable:FeatureGate always
// are; the others when at least one of their gates (pooled over every marker
// line) is in the set.
func fieldIncluded(values markers.MarkerValues, gates markerdefs.GateSet) (bool, []markerProblem) {
	vals := values[markerdefs.EnableFeatureGateName]
	if len(vals) == 0 {
		return true, nil
	}
	var problems []markerProblem
	included := false
	named := false
	for i, v := range vals {
		list, ok := v.(markerdefs.EnableFeatureGate)
		if !ok {
			problems = append(problems, markerProblem{name: markerdefs.EnableFeatureGateName, index: i, err: fmt.Errorf("unexpected marker value of type %T", v)})
			continue
		}
		if len(list) == 0 {
			problems = append(problems, markerProblem{name: markerdefs.EnableFeatureGateName, index: i, err: errors.New("needs a feature gate name")})
		}
		for _, g := range list {
			if g == markerdefs.Ungated {
				problems = append(problems, markerProblem{name: markerdefs.EnableFeatureGateName, index: i, err: errors.New("needs a feature gate name; an empty name is not a gate")})
				continue
			}
			named = true
			if gates[g] {
				included = true
			}
		}
	}
	if !named {
		// Only invalid values: keep the field out of every schema; the
		// problems fail the run anyway.
		return false, problems
	}
	return included, problems
}
