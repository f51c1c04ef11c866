package markerdefs

import (
	"fmt"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Marker names.
const (
	EnableFeatureGateName   = "openshift:enable:FeatureGate"
	GateAwareEnumName       = "openshift:validation:FeatureGateAwareEnum"
	GateAwareXValidationNm  = "openshift:validation:FeatureGateAwareXValidation"
	GateAwareMaxItemsName   = "openshift:validation:FeatureGateAwareMaxItems"
	ApprovedName            = "openshift:api-approved.openshift.io"
	FilePatternName         = "openshift:file-pattern"
	CapabilityName          = "openshift:capability"
	CompatibilityLevelName  = "openshift:compatibility-gen:level"
	CompatibilityInternal   = "openshift:compatibility-gen:internal"
	FeaturegatedSchemaGenNm = "openshift:featuregated-schema-gen"
	ObjectRootName          = "kubebuilder:object:root"
	EnumName                = "enum"
)

// EnableFeatureGate is +openshift:enable:FeatureGate=<Gate>. On a field, the
// field exists only in schemas whose gate set holds one of the gates; on a
// root type, the whole CRD is gated.
type EnableFeatureGate []string

// Enum is +enum (KEP-2887) on a string type: its schema's enum is the set
// of values of the type's constants in the loaded packages (see package
// enumvalues). It is also defined on fields, only so that a misplaced +enum
// is reported instead of silently ignored.
type Enum struct{}

// GateAwareEnum is +openshift:validation:FeatureGateAwareEnum.
type GateAwareEnum struct {
	FeatureGate         []string `marker:"featureGate,optional"`
	RequiredFeatureGate []string `marker:"requiredFeatureGate,optional"`
	Enum                []string `marker:"enum"`
	// unknown are the arguments dropped by ParseMarker (see lenient.go).
	unknown []string
}

// GateCondition implements GateAware.
func (m GateAwareEnum) GateCondition() Condition {
	return Condition{FeatureGate: m.FeatureGate, RequiredFeatureGate: m.RequiredFeatureGate}
}

// GateAwareXValidation is +openshift:validation:FeatureGateAwareXValidation.
// The arguments after the gate lists are those of
// +kubebuilder:validation:XValidation.
type GateAwareXValidation struct {
	FeatureGate         []string `marker:"featureGate,optional"`
	RequiredFeatureGate []string `marker:"requiredFeatureGate,optional"`
	Rule                string   `marker:"rule"`
	Message             string   `marker:"message,optional"`
	MessageExpression   string   `marker:"messageExpression,optional"`
	Reason              string   `marker:"reason,optional"`
	FieldPath           string   `marker:"fieldPath,optional"`
	OptionalOldSelf     *bool    `marker:"optionalOldSelf,optional"`
	unknown             []string
}

// GateCondition implements GateAware.
func (m GateAwareXValidation) GateCondition() Condition {
	return Condition{FeatureGate: m.FeatureGate, RequiredFeatureGate: m.RequiredFeatureGate}
}

// GateAwareMaxItems is +openshift:validation:FeatureGateAwareMaxItems.
type GateAwareMaxItems struct {
	FeatureGate         []string `marker:"featureGate,optional"`
	RequiredFeatureGate []string `marker:"requiredFeatureGate,optional"`
	MaxItems            int      `marker:"maxItems"`
	unknown             []string
}

// GateCondition implements GateAware.
func (m GateAwareMaxItems) GateCondition() Condition {
	return Condition{FeatureGate: m.FeatureGate, RequiredFeatureGate: m.RequiredFeatureGate}
}

// RawValue is a marker whose value is taken verbatim, e.g.
// +openshift:api-approved.openshift.io=https://... (a URL would not survive
// controller-tools' bare-string grammar intact).
type RawValue string

// ParseMarker implements controller-tools' self-parsing hook.
func (v *RawValue) ParseMarker(_, _ string, rest string) error {
	if rest == "" {
		return fmt.Errorf("expected a value after '='")
	}
	*v = RawValue(rest)
	return nil
}

// FilePattern is +openshift:file-pattern=cvoRunLevel=..,operatorName=..,operatorOrdering=..
// Its value is itself a list of key=value pairs, so it parses itself.
type FilePattern struct {
	CVORunLevel      string
	OperatorName     string
	OperatorOrdering string
	// Unknown lists the keys of other arguments in order (openshift/api
	// writes operatorComponent=..). The reference ignores them, so they do
	// not fail the parse: strict mode reports them, the stages ignore them.
	Unknown []string
}

// FilePatternArguments are the keys of +openshift:file-pattern the stages read.
var FilePatternArguments = []string{"cvoRunLevel", "operatorName", "operatorOrdering"}

// ParseMarker implements controller-tools' self-parsing hook.
func (p *FilePattern) ParseMarker(_, _ string, rest string) error {
	if rest == "" {
		return fmt.Errorf("expected cvoRunLevel=..,operatorName=..,operatorOrdering=.. after '='")
	}
	seen := map[string]bool{}
	for _, piece := range strings.Split(rest, ",") {
		key, value, ok := strings.Cut(piece, "=")
		if !ok || value == "" {
			return fmt.Errorf("argument %q: expected key=value", piece)
		}
		if seen[key] {
			return fmt.Errorf("argument %q given twice", key)
		}
		seen[key] = true
		switch key {
		case "cvoRunLevel":
			p.CVORunLevel = value
		case "operatorName":
			p.OperatorName = value
		case "operatorOrdering":
			p.OperatorOrdering = value
		default:
			p.Unknown = append(p.Unknown, key)
		}
	}
	return nil
}

// definitions lists every marker this package adds, with its targets.
func definitions() []*markers.Definition {
	var defs []*markers.Definition
	add := func(name string, target markers.TargetType, obj any) {
		defs = append(defs, markers.Must(markers.MakeDefinition(name, target, obj)))
	}
	for _, t := range []markers.TargetType{markers.DescribesField, markers.DescribesType} {
		add(EnableFeatureGateName, t, EnableFeatureGate(nil))
		add(GateAwareEnumName, t, GateAwareEnum{})
		add(GateAwareXValidationNm, t, GateAwareXValidation{})
		add(GateAwareMaxItemsName, t, GateAwareMaxItems{})
		add(EnumName, t, Enum{})
	}
	add(ApprovedName, markers.DescribesType, RawValue(""))
	add(FilePatternName, markers.DescribesType, FilePattern{})
	add(CapabilityName, markers.DescribesType, RawValue(""))
	add(CompatibilityLevelName, markers.DescribesType, 0)
	add(CompatibilityInternal, markers.DescribesType, struct{}{})
	add(FeaturegatedSchemaGenNm, markers.DescribesPackage, false)
	return defs
}

// Register adds this package's markers to reg, plus +kubebuilder:object:root
// when nothing registered it yet (upstream defines it in its object
// generator, which the CRD stages do not load).
func Register(reg *markers.Registry) error {
	for _, def := range definitions() {
		if err := reg.Register(def); err != nil {
			return err
		}
	}
	if reg.Lookup("+"+ObjectRootName, markers.DescribesType) == nil {
		if err := reg.Define(ObjectRootName, markers.DescribesType, false); err != nil {
			return err
		}
	}
	return nil
}
