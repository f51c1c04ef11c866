package markerdefs

import (
	"strings"

	"sigs.k8s.io/controller-tools/pkg/markers"
)

// The FeatureGate-aware markers parse themselves so that an argument they
// do not have is dropped instead of failing the parse: controller-tools
// would reject "+...FeatureGateAwareXValidation:featureGate=A,rule=..,foo=1"
// and with it the whole package. Strict mode reports the dropped arguments
// (UnknownArguments); unless the repository opted in to strict markers
// they are warnings and the marker applies with the arguments it has. The arguments they do have
// are parsed by controller-tools itself, through a definition of a
// method-less copy of the type.
type (
	gateAwareEnumArgs        GateAwareEnum
	gateAwareXValidationArgs GateAwareXValidation
	gateAwareMaxItemsArgs    GateAwareMaxItems
)

var (
	gateAwareEnumDef        = markers.Must(markers.MakeDefinition(GateAwareEnumName, markers.DescribesField, gateAwareEnumArgs{}))
	gateAwareXValidationDef = markers.Must(markers.MakeDefinition(GateAwareXValidationNm, markers.DescribesField, gateAwareXValidationArgs{}))
	gateAwareMaxItemsDef    = markers.Must(markers.MakeDefinition(GateAwareMaxItemsName, markers.DescribesField, gateAwareMaxItemsArgs{}))
)

// ParseMarker implements controller-tools' self-parsing hook.
func (m *GateAwareEnum) ParseMarker(name, anonymousName, rest string) error {
	v, unknown, err := parseKnown(gateAwareEnumDef, name, anonymousName, rest)
	if v != nil {
		*m = GateAwareEnum(v.(gateAwareEnumArgs))
	}
	m.unknown = unknown
	return err
}

// ParseMarker implements controller-tools' self-parsing hook.
func (m *GateAwareXValidation) ParseMarker(name, anonymousName, rest string) error {
	v, unknown, err := parseKnown(gateAwareXValidationDef, name, anonymousName, rest)
	if v != nil {
		*m = GateAwareXValidation(v.(gateAwareXValidationArgs))
	}
	m.unknown = unknown
	return err
}

// ParseMarker implements controller-tools' self-parsing hook.
func (m *GateAwareMaxItems) ParseMarker(name, anonymousName, rest string) error {
	v, unknown, err := parseKnown(gateAwareMaxItemsDef, name, anonymousName, rest)
	if v != nil {
		*m = GateAwareMaxItems(v.(gateAwareMaxItemsArgs))
	}
	m.unknown = unknown
	return err
}

// UnknownArguments implements ArgumentsDropper.
func (m GateAwareEnum) UnknownArguments() []string { return m.unknown }

// UnknownArguments implements ArgumentsDropper.
func (m GateAwareXValidation) UnknownArguments() []string { return m.unknown }

// UnknownArguments implements ArgumentsDropper.
func (m GateAwareMaxItems) UnknownArguments() []string { return m.unknown }

// ArgumentsDropper is a marker value that dropped arguments its marker
// does not have; strict mode reports them.
type ArgumentsDropper interface {
	UnknownArguments() []string
}

// parseKnown parses a struct marker (split by controller-tools into name,
// anonymousName and rest) with def after dropping the arguments def does
// not have, whose names it returns in order.
func parseKnown(def *markers.Definition, name, anonymousName, rest string) (any, []string, error) {
	args := rest
	if len(anonymousName) > len(name) {
		// "+name:first=value,..." arrives as anonymousName "name:first".
		args = anonymousName[len(name)+1:] + "=" + rest
	}
	var kept, unknown []string
	for _, piece := range SplitTopLevel(args, ',') {
		key, _, hasValue := strings.Cut(piece, "=")
		key = strings.TrimSpace(key)
		if _, known := def.Fields[key]; hasValue && !known && key != "" {
			unknown = append(unknown, key)
			continue
		}
		kept = append(kept, piece)
	}
	raw := "+" + name
	if len(kept) > 0 {
		raw += ":" + strings.Join(kept, ",")
	}
	v, err := def.Parse(raw)
	if err != nil && len(unknown) > 0 {
		// Without them the marker does not parse either (a misspelt
		// required argument): report what controller-tools reports.
		_, err = def.Parse("+" + name + ":" + args)
	}
	return v, unknown, err
}

// SplitTopLevel splits s at every sep that is outside double quotes,
// backquotes and braces: the argument and list-element boundaries of
// controller-tools' marker syntax.
func SplitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	inQuote, inBack, escaped := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inQuote:
			if c == '\\' {
				escaped = true
			} else if c == '"' {
				inQuote = false
			}
		case inBack:
			if c == '`' {
				inBack = false
			}
		case c == '"':
			inQuote = true
		case c == '`':
			inBack = true
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
