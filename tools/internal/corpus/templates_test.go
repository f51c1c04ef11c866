package corpus

import (
	"os"
	"path/filepath"
	"strings"
)

// templates lists every case of the corpus; TestGenerate renders them to
// testdata/cases. Each family below builds its cases from a table.
func templates() []tmpl {
	var all []tmpl
	for _, family := range []func() []tmpl{
		enableGateCases,
		gateAwareCases,
		gateAwareSpecificCases,
		enumCases,
		validationMarkerCases,
		unknownMarkerCases,
		typeMarkerCases,
		packageMarkerCases,
		discoveryCases,
		goTypeCases,
		codegenYAMLCases,
		overrideCases,
		payloadCases,
		outputTreeCases,
		flagCases,
		nonStrictCases,
		housekeepingCases,
		crdValidationCases,
	} {
		all = append(all, family()...)
	}
	return all
}

// marker builds the usual case: one line injected at a placeholder of the
// base tree, expected to fail naming that line.
func marker(name, desc, placeholder, line string, want ...string) tmpl {
	return tmpl{name: name, desc: desc, inject: []string{placeholder + ": // " + line}, want: want}
}

// at is the position token of the first line injected at placeholder.
func at(placeholder string) string { return "{@" + placeholder + "}" }

func enableGateCases() []tmpl {
	const cat = "gate-enable/"
	const m = "+openshift:enable:FeatureGate"
	f := "field-string"
	pos := at(f)
	return []tmpl{
		marker(cat+"no-value", "A field gate without '=' and gate name.", f, m,
			pos+": "+m+": "+m+" needs a value: write "+m+"=<value>"),
		marker(cat+"empty-value", "A field gate with '=' but no gate name.", f, m+"=",
			pos+": "+m+"=: "+m+" needs a value: write "+m+"=<value>"),
		marker(cat+"quoted-empty", "A field gate naming the empty gate \"\" (only FeatureGateAware markers use \"\" for ungated).", f, m+`=""`,
			pos+": "+m+`="": names an empty gate`),
		marker(cat+"quoted-name", "A quoted gate name would end up with its quotes in a file name.", f, m+`="WidgetLimits"`,
			pos+": "+m+`="WidgetLimits": gate name "WidgetLimits" is quoted`),
		marker(cat+"comma-list", "Two gates on one line separated by a comma; the marker takes one gate per line.", f, m+"=WidgetLimits,WidgetColors",
			pos+": "+m+`=WidgetLimits,WidgetColors: cannot parse +openshift:enable:FeatureGate: extra arguments provided: ",WidgetColors" (at column 13 of the arguments)`),
		marker(cat+"unknown-gate-typo", "A misspelt gate name: the gated field would only ever ship in CustomNoUpgrade.", f, m+"=WidgetLimit",
			pos+": "+m+`=WidgetLimit: FeatureGate "WidgetLimit" is not listed in the payload FeatureGate manifests`, "closest known gates: WidgetLimits"),
		marker(cat+"unknown-gate", "A gate name that no payload manifest lists.", f, m+"=NoSuchGate",
			pos+": "+m+`=NoSuchGate: FeatureGate "NoSuchGate" is not listed in the payload FeatureGate manifests`),
		marker(cat+"unknown-gate-case", "Gate names are case-sensitive.", f, m+"=widgetLimits",
			pos+": "+m+`=widgetLimits: FeatureGate "widgetLimits" is not listed`, "closest known gates: WidgetLimits"),
		marker(cat+"invalid-name", "'+' joins required gates in file names, so it cannot be part of a gate name.", f, m+"=Widget+Limits",
			pos+": "+m+`=Widget+Limits: FeatureGate "Widget+Limits" is not listed`),
		marker(cat+"negated", "There is no negation syntax in markers.", f, m+"=-WidgetLimits",
			pos+": "+m+`=-WidgetLimits: FeatureGate "-WidgetLimits" is not listed`, "closest known gates: WidgetLimits"),
		marker(cat+"semicolon-list-unknown", "A ';' list whose second gate is unknown.", f, m+"=WidgetLimits;NoSuchGate",
			pos+": "+m+`=WidgetLimits;NoSuchGate: FeatureGate "NoSuchGate" is not listed`),
		marker(cat+"brace-list-unknown", "A {..} list whose second gate is unknown.", f, m+"={WidgetLimits,NoSuchGate}",
			pos+": "+m+`={WidgetLimits,NoSuchGate}: FeatureGate "NoSuchGate" is not listed`),
		marker(cat+"misspelt-plural", "FeatureGates instead of FeatureGate.", f, "+openshift:enable:FeatureGates=WidgetLimits",
			pos+": +openshift:enable:FeatureGates=WidgetLimits: is not a marker any stage understands", "did you mean +openshift:enable:FeatureGate?"),
		marker(cat+"misspelt-case", "featureGate instead of FeatureGate.", f, "+openshift:enable:featureGate=WidgetLimits",
			pos+": +openshift:enable:featureGate=WidgetLimits: is not a marker any stage understands", "did you mean +openshift:enable:FeatureGate?"),
		marker(cat+"misspelt-enabled", "enabled instead of enable.", f, "+openshift:enabled:FeatureGate=WidgetLimits",
			pos+": +openshift:enabled:FeatureGate=WidgetLimits: is not a marker any stage understands", "did you mean +openshift:enable:FeatureGate?"),
		marker(cat+"missing-enable", "The enable: segment is missing.", f, "+openshift:FeatureGate=WidgetLimits",
			pos+": +openshift:FeatureGate=WidgetLimits: is not a marker any stage understands"),
		marker(cat+"colon-instead-of-equals", "A ':' where the '=' belongs.", f, m+":WidgetLimits",
			pos+": "+m+":WidgetLimits: is not a marker any stage understands", "did you mean +openshift:enable:FeatureGate?"),
		marker(cat+"root-unknown-gate", "A whole CRD gated by an unknown gate.", "root", m+"=NoSuchGate",
			at("root")+": "+m+`=NoSuchGate: FeatureGate "NoSuchGate" is not listed`),
		marker(cat+"root-quoted-empty", "A whole CRD gated by the empty gate.", "root", m+`=""`,
			at("root")+": "+m+`="": names an empty gate`),
		marker(cat+"enum-type-unknown-gate", "An unknown gate on a named string type.", "enum-type", m+"=WidgetColor",
			at("enum-type")+": "+m+`=WidgetColor: FeatureGate "WidgetColor" is not listed`, "closest known gates: WidgetColors"),
		{name: cat + "unreachable-type-unknown-gate", desc: "An unknown gate on a type no CRD uses: strict markers check every comment of the package.",
			inject: []string{"decls: // Unused is not part of any CRD.", "decls: // " + m + "=NoSuchGate", "decls: type Unused struct{}"},
			want:   []string{"{@decls#2}: " + m + `=NoSuchGate: FeatureGate "NoSuchGate" ` + notListed}},
		{name: cat + "unreachable-field-misspelt", desc: "A misspelt gate marker on a field of a type no CRD uses.",
			inject: []string{"decls: // Unused is not part of any CRD.", "decls: type Unused struct {", "decls: 	// +openshift:enable:FeatureGates=WidgetLimits", "decls: 	Field string `json:\"field\"`", "decls: }"},
			want:   []string{"{@decls#3}: +openshift:enable:FeatureGates=WidgetLimits: " + notUnderstood + "; did you mean " + m + "?"}},
		marker(cat+"struct-type-quoted", "A quoted gate on a struct type.", "spec-type", m+`="WidgetLimits"`,
			at("spec-type")+": "+m+`="WidgetLimits": gate name "WidgetLimits" is quoted`),
	}
}

// gateAware describes one FeatureGateAware marker: where the corpus puts it,
// the arguments that complete it and the name of its required argument.
type gateAware struct {
	short, name, placeholder, tail, required string
}

var gateAwareMarkers = []gateAware{
	{"enum", "+openshift:validation:FeatureGateAwareEnum", "enum-type", "enum=Red;Green", "enum"},
	{"xvalidation", "+openshift:validation:FeatureGateAwareXValidation", "spec-type", `rule="self.size >= 0"`, "rule"},
	{"maxitems", "+openshift:validation:FeatureGateAwareMaxItems", "field-slice", "maxItems=8", "maxItems"},
}

const (
	namesNoGate   = `names no gate: give featureGate=<Gate>[;<Gate>...] (featureGate="" for the ungated variant) or requiredFeatureGate=<Gate>[;<Gate>...]`
	notListed     = "is not listed in the payload FeatureGate manifests (payload-manifests/featuregates), so its content would only ever ship in CustomNoUpgrade"
	listHint      = "arguments are name=value pairs separated by ',': write lists as a;b;c or {a,b,c} and quote values that contain ','"
	notUnderstood = "is not a marker any stage understands, so it is silently ignored"
)

// gateAwareCases break the gate lists of each FeatureGateAware marker the
// same ways.
func gateAwareCases() []tmpl {
	var out []tmpl
	for _, g := range gateAwareMarkers {
		cat := "gate-aware-" + g.short + "/"
		pos := at(g.placeholder)
		add := func(name, desc, args string, want ...string) {
			line := g.name + ":" + args
			if args == "" {
				line = g.name
			}
			full := []string{pos + ": " + line + ": " + want[0]}
			out = append(out, marker(cat+name, desc, g.placeholder, line, append(full, want[1:]...)...))
		}
		t := g.tail
		cannot := "cannot parse " + g.name + ": "
		add("no-gate", "No featureGate and no requiredFeatureGate.", t,
			namesNoGate)
		add("no-arguments", "The marker without any argument.", "",
			cannot+`missing argument "`+g.required+`"`)
		add("only-gate", "A gate and nothing to do when it is enabled.", "featureGate=WidgetLimits",
			cannot+`missing argument "`+g.required+`" (at column 25 of the arguments)`)
		add("featuregate-empty", "featureGate= with no value names no gate at all.", "featureGate=,"+t,
			namesNoGate)
		add("required-empty", "requiredFeatureGate= with no value names no gate at all.", "requiredFeatureGate=,"+t,
			namesNoGate)
		add("required-quoted-empty", "requiredFeatureGate=\"\" (\"\" means ungated only in featureGate).", `requiredFeatureGate="",`+t,
			`requiredFeatureGate: names an empty gate ("" only means ungated in featureGate)`)
		add("featuregate-quoted", "A quoted gate name in featureGate would keep its quotes in the file name.", `featureGate="WidgetLimits",`+t,
			`featureGate: gate name "WidgetLimits" is quoted: write it without quotes (only the exact "" means ungated)`)
		add("required-quoted", "A quoted gate name in requiredFeatureGate.", `requiredFeatureGate=WidgetLimits;"WidgetColors",`+t,
			`requiredFeatureGate: gate name "WidgetColors" is quoted: write it without quotes`)
		add("argument-plural", "featureGates instead of featureGate.", "featureGates=WidgetLimits,"+t,
			`unknown argument "featureGates" of `+g.name, "did you mean featureGate?")
		add("argument-case", "featuregate instead of featureGate.", "featuregate=WidgetLimits,"+t,
			`unknown argument "featuregate" of `+g.name, "did you mean featureGate?")
		add("argument-required-plural", "requiredFeatureGates instead of requiredFeatureGate.", "requiredFeatureGates=WidgetLimits,"+t,
			`unknown argument "requiredFeatureGates" of `+g.name, "did you mean requiredFeatureGate?")
		add("argument-gate", "gate instead of featureGate.", "gate=WidgetLimits,"+t,
			`unknown argument "gate" of `+g.name+` (arguments: `)
		add("required-twice", "The same required gate twice.", "requiredFeatureGate=WidgetLimits;WidgetLimits,"+t,
			"requiredFeatureGate: names gate WidgetLimits twice")
		add("featuregate-unknown", "An unknown gate in featureGate.", "featureGate=NoSuchGate,"+t,
			`FeatureGate "NoSuchGate" `+notListed)
		add("featuregate-typo", "A misspelt gate in featureGate.", "featureGate=WidgetLimit,"+t,
			`FeatureGate "WidgetLimit" `+notListed, "closest known gates: WidgetLimits")
		add("required-unknown", "An unknown gate in requiredFeatureGate.", "requiredFeatureGate=WidgetColors;WidgetLimit,"+t,
			`FeatureGate "WidgetLimit" `+notListed, "closest known gates: WidgetLimits")
		add("featuregate-unknown-second", "The second gate of a list is unknown.", "featureGate=WidgetLimits;NoSuchGate,"+t,
			`FeatureGate "NoSuchGate" `+notListed)
		add("featuregate-comma-list", "Gates separated by ',' (lists use ';').", "featureGate=WidgetLimits,WidgetColors,"+t,
			cannot+`expected equals, got "," (at column 38 of the arguments); `+listHint)
		add("featuregate-brace-semicolon", "A {..} list separated by ';'.", "featureGate={WidgetLimits;WidgetColors},"+t,
			cannot+`expected comma, got ";" (at column 26 of the arguments); inside {...} separate list items with ','`)
		add("featuregate-brace-unknown", "A {..} list with an unknown gate.", "featureGate={WidgetLimits,NoSuchGate},"+t,
			`FeatureGate "NoSuchGate" `+notListed)
		add("featuregate-invalid-name", "A gate name with '/' is no registered gate.", "featureGate=Widget/Limits,"+t,
			`FeatureGate "Widget/Limits" `+notListed)
		add("featuregate-negated", "There is no negation syntax: -WidgetLimits is no registered gate.", "featureGate=-WidgetLimits,"+t,
			`FeatureGate "-WidgetLimits" `+notListed, "closest known gates: WidgetLimits")
	}
	return out
}

// knownBugs maps cases to the bug that makes one of their want lines fail.
var knownBugs = map[string]string{}

// gateAwareSpecificCases break the arguments that are not gate lists, and
// put the markers where they cannot apply.
func gateAwareSpecificCases() []tmpl {
	const enum = "+openshift:validation:FeatureGateAwareEnum"
	const xval = "+openshift:validation:FeatureGateAwareXValidation"
	const maxItems = "+openshift:validation:FeatureGateAwareMaxItems"
	type c struct{ name, desc, placeholder, line, want string }
	cases := []c{
		{"gate-aware-enum/gate-argument-twice", "featureGate given twice: the first gate would be dropped.", "enum-type", enum + ":featureGate=WidgetColors,featureGate=WidgetSizing,enum=Red",
			"argument featureGate is given twice; only the last value would count (write lists as a;b)"},
		{"gate-aware-enum/enum-empty", "An empty enum would lift every enum constraint.", "enum-type", enum + ":featureGate=WidgetColors,enum={}",
			"enum is empty, which would remove every enum constraint when the gates are on"},
		{"gate-aware-xvalidation/rule-empty", "An empty CEL rule.", "spec-type", xval + `:featureGate=WidgetLimits,rule="",message="m"`,
			"rule is empty: give the CEL expression to enforce when the gates are on"},
		{"gate-aware-enum/enum-missing", "No enum argument.", "enum-type", enum + ":featureGate=WidgetColors",
			"cannot parse " + enum + `: missing argument "enum" (at column 25 of the arguments)`},
		{"gate-aware-enum/enum-comma-list", "Enum values separated by ','.", "enum-type", enum + ":featureGate=WidgetColors,enum=Red,Green",
			"cannot parse " + enum + `: expected equals, got "" (at column 40 of the arguments); ` + listHint},
		{"gate-aware-enum/enum-misspelt", "enums instead of enum.", "enum-type", enum + ":featureGate=WidgetColors,enums=Red;Green",
			`unknown argument "enums" of ` + enum + " (arguments: enum, featureGate, requiredFeatureGate); did you mean enum?"},
		{"gate-aware-enum/enum-unterminated-quote", "An enum value with an unterminated quote.", "enum-type", enum + `:featureGate=WidgetColors,enum="Red;Green`,
			"cannot parse " + enum + ": literal not terminated (at column 31 of the arguments)"},
		{"gate-aware-enum/misspelt-marker", "FeatureGateAwareEnums instead of FeatureGateAwareEnum.", "enum-type", "+openshift:validation:FeatureGateAwareEnums:featureGate=WidgetColors,enum=Red",
			notUnderstood + "; did you mean " + enum + "?"},
		{"gate-aware-enum/missing-validation-segment", "The validation: segment is missing.", "enum-type", "+openshift:FeatureGateAwareEnum:featureGate=WidgetColors,enum=Red",
			notUnderstood + "; did you mean " + enum + "?"},
		{"gate-aware-enum/kubebuilder-prefix", "The marker under +kubebuilder: instead of +openshift:.", "enum-type", "+kubebuilder:validation:FeatureGateAwareEnum:featureGate=WidgetColors,enum=Red",
			notUnderstood + "; did you mean " + enum + "?"},
		{"gate-aware-maxitems/not-a-number", "maxItems=x.", "field-slice", maxItems + ":featureGate=WidgetLimits,maxItems=x",
			"cannot parse " + maxItems + `: expected integer, got "x" (at column 35 of the arguments)`},
		{"gate-aware-maxitems/negative", "maxItems=-1.", "field-slice", maxItems + ":featureGate=WidgetLimits,maxItems=-1",
			"maxItems must not be negative, got -1"},
		{"gate-aware-maxitems/fraction", "maxItems=1.5.", "field-slice", maxItems + ":featureGate=WidgetLimits,maxItems=1.5",
			"cannot parse " + maxItems + `: expected integer, got "1.5" (at column 35 of the arguments)`},
		{"gate-aware-maxitems/empty", "maxItems= with no value.", "field-slice", maxItems + ":featureGate=WidgetLimits,maxItems=",
			"cannot parse " + maxItems + `: expected integer, got "" (at column 35 of the arguments)`},
		{"gate-aware-maxitems/quoted-number", "maxItems=\"3\".", "field-slice", maxItems + `:featureGate=WidgetLimits,maxItems="3"`,
			"cannot parse " + maxItems + `: expected integer, got "\"3\"" (at column 35 of the arguments)`},
		{"gate-aware-maxitems/misspelt-argument", "maxitems instead of maxItems.", "field-slice", maxItems + ":featureGate=WidgetLimits,maxitems=3",
			`unknown argument "maxitems" of ` + maxItems + " (arguments: featureGate, maxItems, requiredFeatureGate); did you mean maxItems?"},
		{"gate-aware-maxitems/on-string-field", "maxItems on a string field.", "field-string", maxItems + ":featureGate=WidgetLimits,maxItems=3",
			`must apply maxitem to an array, but the schema here is of type "string"`},
		{"gate-aware-maxitems/on-int-field", "maxItems on an integer field.", "field-int", maxItems + ":featureGate=WidgetLimits,maxItems=3",
			`must apply maxitem to an array, but the schema here is of type "integer"`},
		{"gate-aware-maxitems/on-string-type", "maxItems on a named string type.", "enum-type", maxItems + ":featureGate=WidgetLimits,maxItems=3",
			`must apply maxitem to an array, but the schema here is of type "string"`},
		{"gate-aware-maxitems/on-struct-type", "maxItems on a struct type.", "spec-type", maxItems + ":featureGate=WidgetLimits,maxItems=3",
			`must apply maxitem to an array, but the schema here is of type "object"`},
		{"gate-aware-maxitems/misspelt-marker", "FeatureGateAwareMaxitems instead of FeatureGateAwareMaxItems.", "field-slice", "+openshift:validation:FeatureGateAwareMaxitems:featureGate=WidgetLimits,maxItems=3",
			notUnderstood + "; did you mean " + maxItems + "?"},
		{"gate-aware-xvalidation/rule-missing", "A message but no rule.", "spec-type", xval + `:featureGate=WidgetLimits,message="size must be set"`,
			"cannot parse " + xval + `: missing argument "rule" (at column 52 of the arguments)`},
		{"gate-aware-xvalidation/rule-unterminated", "A rule with an unterminated quote.", "spec-type", xval + `:featureGate=WidgetLimits,rule="self.size > 0`,
			"cannot parse " + xval + ": literal not terminated (at column 31 of the arguments)"},
		{"gate-aware-xvalidation/message-misspelt", "messages instead of message.", "spec-type", xval + `:featureGate=WidgetLimits,rule="self.size > 0",messages="x"`,
			`unknown argument "messages" of ` + xval + " (arguments: featureGate, fieldPath, message, messageExpression, optionalOldSelf, reason, requiredFeatureGate, rule); did you mean message?"},
		{"gate-aware-xvalidation/optional-old-self-not-bool", "optionalOldSelf=maybe.", "spec-type", xval + `:featureGate=WidgetLimits,rule="self.size > 0",optionalOldSelf=maybe`,
			"cannot parse " + xval + `: expected true or false, got "maybe" (at column 63 of the arguments)`},
		{"gate-aware-xvalidation/unquoted-message-with-comma", "An unquoted message containing a comma.", "spec-type", xval + `:featureGate=WidgetLimits,rule=self.size > 0,message=size, please`,
			"cannot parse " + xval + `: expected equals, got "" (at column 65 of the arguments); ` + listHint},
		{"gate-aware-xvalidation/misspelt-marker", "FeatureGateAwareXvalidation instead of FeatureGateAwareXValidation.", "spec-type", "+openshift:validation:FeatureGateAwareXvalidation:featureGate=WidgetLimits,rule=\"true\"",
			notUnderstood + "; did you mean " + xval + "?"},
		{"gate-aware-xvalidation/reason-unknown", "A reason that is not a CEL failure reason.", "spec-type", xval + `:featureGate=WidgetLimits,rule="self.size > 0",reason=Whatever`,
			"invalid reason Whatever, valid values are FieldValueRequired, FieldValueInvalid, FieldValueForbidden and FieldValueDuplicate"},
	}
	var out []tmpl
	for _, x := range cases {
		tp := marker(x.name, x.desc, x.placeholder, x.line, at(x.placeholder)+": "+x.line+": "+x.want)
		tp.bug = knownBugs[x.name]
		out = append(out, tp)
	}
	out = append(out, tmpl{
		name:   "gate-aware-enum/with-plain-enum",
		desc:   "A FeatureGateAware enum next to a plain kubebuilder Enum on the same type: which wins is unspecified.",
		inject: []string{"enum-type: // +kubebuilder:validation:Enum=Red;Green"},
		want: []string{`@@widgets/v1/types.go|FeatureGateAwareEnum:featureGate="",enum=Red;Green@@: +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=Red;Green: ` +
			"cannot be combined with +kubebuilder:validation:Enum on the same field or type"},
	})
	return out
}

// enumCases misuse +enum, whose values come from the type's constants
// once .gatedcrd.yaml opts in (without it +enum is ignored, as the
// reference does: the schemapatch tests prove that side).
func enumCases() []tmpl {
	optIn := func(t tmpl) tmpl {
		t.files = map[string]string{".gatedcrd.yaml": "enumFromConstants: true\n"}
		return t
	}
	fgaEnum := `@@widgets/v1/types.go|FeatureGateAwareEnum:featureGate="",enum=Red;Green@@`
	return []tmpl{
		optIn(tmpl{
			name:   "enum/with-gate-aware-enum",
			desc:   "+enum on a type that also has FeatureGateAware enums: both set the enum.",
			inject: []string{"enum-type: // +enum", "decls: const Red Color = \"Red\""},
			want: []string{at("enum-type") + ": +enum: cannot be combined with +openshift:validation:FeatureGateAwareEnum (" +
				fgaEnum + ") on the same type: both set the enum; keep one"},
		}),
		optIn(tmpl{
			name: "enum/with-plain-enum",
			desc: "+enum next to +kubebuilder:validation:Enum, as openshift/api writes it for openapi-gen: fine without the opt-in, a conflict with it.",
			inject: []string{"decls: // +kubebuilder:validation:Enum=Low;High", "decls: // +enum", "decls: type Level string",
				"decls: const Low Level = \"Low\""},
			want: []string{"{@decls#2}: +enum: cannot be combined with +kubebuilder:validation:Enum ({@decls}) on the same type: both set the enum; keep one"},
		}),
		optIn(tmpl{
			name:   "enum/no-constants",
			desc:   "+enum on a string type without constants would reject every value.",
			inject: []string{"decls: // Shade has no constants.", "decls: // +enum", "decls: type Shade string"},
			want:   []string{"{@decls#2}: +enum: no constant of type Shade is declared in the loaded packages"},
		}),
		optIn(tmpl{
			name:   "enum/not-a-string",
			desc:   "+enum on an integer type.",
			inject: []string{"decls: // +enum", "decls: type Level int32", "decls: const Low Level = 1"},
			want:   []string{"{@decls}: +enum: type Level is not a string type (its underlying type is int32)"},
		}),
		optIn(marker("enum/on-field", "+enum describes a type, not a field.", "field-string", "+enum",
			at("field-string")+": +enum: must be set on a string type, not on a field")),
	}
}

// validationMarkerCases misspell the common kubebuilder validation markers
// and give them values of the wrong type.
func validationMarkerCases() []tmpl {
	type c struct{ name, placeholder, line, suggestion string }
	misspelt := []c{
		{"enum-lower-case", "field-string", "+kubebuilder:validation:enum=a;b", "kubebuilder:validation:Enum"},
		{"enum-no-validation", "field-string", "+kubebuilder:Enum=a;b", "kubebuilder:validation:Enum"},
		{"enum-plural", "field-string", "+kubebuilder:validation:Enums=a;b", "kubebuilder:validation:Enum"},
		{"maxitems-lower-case", "field-slice", "+kubebuilder:validation:maxItems=3", "kubebuilder:validation:MaxItems"},
		{"maxitems-typo", "field-slice", "+kubebuilder:validation:Maxitems=3", "kubebuilder:validation:MaxItems"},
		{"maxitems-no-validation", "field-slice", "+kubebuilder:MaxItems=3", "kubebuilder:validation:MaxItems"},
		{"maxitems-singular", "field-slice", "+kubebuilder:validation:MaxItem=3", "kubebuilder:validation:MaxItems"},
		{"minitems-singular", "field-slice", "+kubebuilder:validation:MinItem=1", "kubebuilder:validation:MinItems"},
		{"uniqueitems-singular", "field-slice", "+kubebuilder:validation:UniqueItem=true", "kubebuilder:validation:UniqueItems"},
		{"maxlength-typo", "field-string", "+kubebuilder:validation:MaxLenght=3", "kubebuilder:validation:MaxLength"},
		{"maxlength-no-validation", "field-string", "+kubebuilder:MaxLength=3", "kubebuilder:validation:MaxLength"},
		{"minlength-typo", "field-string", "+kubebuilder:validation:MinLenght=1", "kubebuilder:validation:MinLength"},
		{"maximum-typo", "field-int", "+kubebuilder:validation:Maximun=3", "kubebuilder:validation:Maximum"},
		{"minimum-no-validation", "field-int", "+kubebuilder:Minimum=0", "kubebuilder:validation:Minimum"},
		{"minimum-lower-case", "field-int", "+kubebuilder:validation:minimum=0", "kubebuilder:validation:Minimum"},
		{"exclusivemaximum-typo", "field-int", "+kubebuilder:validation:ExclusiveMaximun=true", "kubebuilder:validation:ExclusiveMaximum"},
		{"multipleof-typo", "field-int", "+kubebuilder:validation:MultipleOff=2", "kubebuilder:validation:MultipleOf"},
		{"pattern-typo", "field-string", "+kubebuilder:validation:Patern=`^a+$`", "kubebuilder:validation:Pattern"},
		{"pattern-no-validation", "field-string", "+kubebuilder:Pattern=`^a+$`", "kubebuilder:validation:Pattern"},
		{"format-plural", "field-string", "+kubebuilder:validation:Formats=hostname", "kubebuilder:validation:Format"},
		{"type-plural", "field-string", "+kubebuilder:validation:Types=string", "kubebuilder:validation:Type"},
		{"xvalidation-no-validation", "spec-type", `+kubebuilder:XValidation:rule="self.size >= 0"`, "kubebuilder:validation:XValidation"},
		{"xvalidation-lower-case", "spec-type", `+kubebuilder:validation:xValidation:rule="self.size >= 0"`, "kubebuilder:validation:XValidation"},
		{"xvalidation-plural", "spec-type", `+kubebuilder:validation:XValidations:rule="self.size >= 0"`, "kubebuilder:validation:XValidation"},
		{"required-lower-case", "field-string", "+kubebuilder:validation:required", "kubebuilder:validation:Required"},
		{"required-no-validation", "field-string", "+kubebuilder:Required", "kubebuilder:validation:Required"},
		{"optional-typo", "field-int", "+kubebuilder:validation:Optinal", "kubebuilder:validation:Optional"},
		{"default-plural", "field-int", "+kubebuilder:defaults=3", "kubebuilder:default"},
		{"default-under-validation", "field-int", "+kubebuilder:validation:Default=3", "kubebuilder:default"},
		{"nullable-under-validation", "field-string", "+kubebuilder:validation:Nullable", "nullable"},
		{"listtype-under-kubebuilder", "field-slice", "+kubebuilder:listType=atomic", "listType"},
		{"embeddedresource-typo", "spec-fields", "+kubebuilder:validation:EmbededResource", "kubebuilder:validation:EmbeddedResource"},
		{"schemaless-case", "spec-fields", "+kubebuilder:validation:SchemaLess", "kubebuilder:validation:Schemaless"},
		{"preserveunknownfields-singular", "spec-type", "+kubebuilder:pruning:PreserveUnknownField", "kubebuilder:pruning:PreserveUnknownFields"},
		{"maxproperties-singular", "spec-type", "+kubebuilder:validation:MaxProperty=3", "kubebuilder:validation:MaxProperties"},
		{"items-maxlength-typo", "field-slice", "+kubebuilder:validation:items:MaxLenght=3", "kubebuilder:validation:items:MaxLength"},
		{"title-typo", "field-string", "+kubebuilder:titel=Name", "kubebuilder:title"},
		{"example-plural", "field-string", "+kubebuilder:examples=foo", "kubebuilder:example"},
	}
	var out []tmpl
	for _, x := range misspelt {
		out = append(out, marker("validation-misspelt/"+x.name, "A misspelt validation marker would silently validate nothing.", x.placeholder, x.line,
			at(x.placeholder)+": "+x.line+": "+notUnderstood+"; did you mean +"+x.suggestion+"?"))
	}
	type v struct{ name, desc, placeholder, line, want string }
	values := []v{
		{"maxitems-not-a-number", "MaxItems=x.", "field-slice", "+kubebuilder:validation:MaxItems=x",
			`cannot parse +kubebuilder:validation:MaxItems: invalid maxItems value: strconv.Atoi: parsing "x": invalid syntax`},
		{"minlength-not-a-number", "MinLength=abc.", "field-string", "+kubebuilder:validation:MinLength=abc",
			`cannot parse +kubebuilder:validation:MinLength: expected integer, got "abc" (at column 1 of the arguments)`},
		{"maximum-not-a-number", "Maximum=ten.", "field-int", "+kubebuilder:validation:Maximum=ten",
			`cannot parse +kubebuilder:validation:Maximum: invalid maximum value: strconv.ParseFloat: parsing "ten": invalid syntax`},
		{"maximum-empty", "Maximum= with no value.", "field-int", "+kubebuilder:validation:Maximum=",
			`cannot parse +kubebuilder:validation:Maximum: invalid maximum value: strconv.ParseFloat: parsing "": invalid syntax`},
		{"pattern-unterminated", "A Pattern with an unterminated quote.", "field-string", `+kubebuilder:validation:Pattern="^a+`,
			"cannot parse +kubebuilder:validation:Pattern: literal not terminated (at column 1 of the arguments)"},
		{"enum-comma-list", "Enum values separated by ','.", "field-string", "+kubebuilder:validation:Enum=a,b",
			`cannot parse +kubebuilder:validation:Enum: extra arguments provided: ",b" (at column 2 of the arguments); ` + listHint},
		{"enum-brace-semicolon", "A {..} Enum list separated by ';'.", "field-string", "+kubebuilder:validation:Enum={a;b}",
			`cannot parse +kubebuilder:validation:Enum: expected comma, got ";" (at column 3 of the arguments); inside {...} separate list items with ','`},
		{"uniqueitems-not-bool", "UniqueItems=yes.", "field-slice", "+kubebuilder:validation:UniqueItems=yes",
			`cannot parse +kubebuilder:validation:UniqueItems: expected true or false, got "yes" (at column 1 of the arguments)`},
		{"exclusiveminimum-not-bool", "ExclusiveMinimum=1.", "field-int", "+kubebuilder:validation:ExclusiveMinimum=1",
			`cannot parse +kubebuilder:validation:ExclusiveMinimum: expected true or false, got "1" (at column 1 of the arguments)`},
		{"required-with-value", "Required takes no value.", "field-int", "+kubebuilder:validation:Required=true",
			`cannot parse +kubebuilder:validation:Required: extra arguments provided: "true" (at column 1 of the arguments)`},
		{"xvalidation-no-rule", "XValidation without rule.", "spec-type", `+kubebuilder:validation:XValidation:message="x"`,
			`cannot parse +kubebuilder:validation:XValidation: missing argument "rule" (at column 12 of the arguments)`},
		{"xvalidation-unknown-argument", "XValidation with a misspelt argument.", "spec-type", `+kubebuilder:validation:XValidation:rule="true",messsage="x"`,
			`unknown argument "messsage" of +kubebuilder:validation:XValidation (arguments: fieldPath, message, messageExpression, optionalOldSelf, reason, rule); did you mean message?`},
		{"default-invalid", "A default that is neither JSON nor a marker value.", "field-int", "+kubebuilder:default={",
			`cannot parse +kubebuilder:default: expected close curly brace, got "" (at column 2 of the arguments)`},
	}
	for _, x := range values {
		out = append(out, marker("validation-value/"+x.name, x.desc, x.placeholder, x.line, at(x.placeholder)+": "+x.line+": "+x.want))
	}
	// Markers that parse but cannot apply where they are: controller-tools
	// reports them at the field, without the marker.
	type w struct{ name, desc, placeholder, line, field, want string }
	misplaced := []w{
		{"maxlength-on-int", "MaxLength on an integer field.", "field-int", "+kubebuilder:validation:MaxLength=3", "Size int32",
			`must apply maxlength to a textual value, found type "integer"`},
		{"maxitems-on-string", "MaxItems on a string field.", "field-string", "+kubebuilder:validation:MaxItems=3", "Name string",
			"must apply maxitem to an array"},
		{"minimum-on-string", "Minimum on a string field.", "field-string", "+kubebuilder:validation:Minimum=1", "Name string",
			"must apply minimum to a numeric value, found string"},
		{"pattern-on-int", "Pattern on an integer field.", "field-int", "+kubebuilder:validation:Pattern=`^1$`", "Size int32",
			`must apply pattern to a textual value, found type "integer"`},
		{"listtype-invalid", "listType=sorted is not a list type.", "field-slice", "+listType=sorted", "Tags []string",
			`ListType must be either "map", "set" or "atomic"`},
		{"listmapkey-on-strings", "listMapKey on an atomic list of strings.", "field-slice", "+listMapKey=name", "Tags []string",
			"must apply listMapKey to an associative-list"},
	}
	for _, x := range misplaced {
		out = append(out, marker("validation-value/"+x.name, x.desc, x.placeholder, x.line, "@@widgets/v1/types.go|"+x.field+"@@: "+x.want))
	}
	return out
}

// unknownMarkerCases are lines under +kubebuilder: or +openshift: that no
// stage reads, and the legacy FeatureSet markers.
func unknownMarkerCases() []tmpl {
	type c struct{ name, desc, placeholder, line, want string }
	cases := []c{
		{"kubebuilder-unknown", "A made-up kubebuilder marker.", "field-string", "+kubebuilder:frobnicate", notUnderstood},
		{"kubebuilder-validation-unknown", "A made-up validation marker.", "field-string", "+kubebuilder:validation:Frobnicate=3", notUnderstood},
		{"openshift-unknown", "A made-up openshift marker.", "field-string", "+openshift:frobnicate=true", notUnderstood},
		{"openshift-validation-unknown", "A made-up openshift validation marker.", "field-string", "+openshift:validation:Frobnicate=3", notUnderstood},
		{"kubebuilder-incomplete", "A marker name that ends with ':'.", "field-string", "+kubebuilder:validation:", "is an incomplete marker name (it ends with ':'), so it is silently ignored"},
		{"openshift-incomplete", "A bare +openshift: prefix.", "field-string", "+openshift:", "is an incomplete marker name (it ends with ':'), so it is silently ignored"},
		{"openshift-validation-enum", "Enum under +openshift:validation.", "field-string", "+openshift:validation:Enum=a;b", notUnderstood + "; did you mean +kubebuilder:validation:Enum?"},
		{"object-root-plural", "object:roots instead of object:root.", "root", "+kubebuilder:object:roots=true", notUnderstood + "; did you mean +kubebuilder:object:root?"},
		{"subresource-plural", "subresources:status instead of subresource:status.", "root", "+kubebuilder:subresources:status", notUnderstood + "; did you mean +kubebuilder:subresource:status?"},
		{"subresource-case", "subresource:Status.", "root", "+kubebuilder:subresource:Status", notUnderstood + "; did you mean +kubebuilder:subresource:status?"},
		{"printcolumn-plural", "printcolumns instead of printcolumn.", "root", "+kubebuilder:printcolumns:name=Size,type=integer,JSONPath=.spec.size", notUnderstood + "; did you mean +kubebuilder:printcolumn?"},
		{"resource-plural", "resources instead of resource.", "root", "+kubebuilder:resources:path=gadgets,scope=Cluster", notUnderstood + "; did you mean +kubebuilder:resource?"},
		{"api-approved-short", "api-approved without the domain.", "root", "+openshift:api-approved=https://github.com/gatedcrd/gatedcrd/pull/7", notUnderstood + "; did you mean +openshift:api-approved.openshift.io?"},
		{"capability-plural", "capabilities instead of capability.", "root", "+openshift:capabilities=Widgets", notUnderstood + "; did you mean +openshift:capability?"},
		{"file-pattern-typo", "filepattern instead of file-pattern.", "root", "+openshift:filepattern=operatorName=widgets", notUnderstood + "; did you mean +openshift:file-pattern?"},
		{"compatibility-level-plural", "compatibility-gen:levels.", "root", "+openshift:compatibility-gen:levels=1", notUnderstood + "; did you mean +openshift:compatibility-gen:level?"},
		{"compatibility-level-not-a-number", "compatibility-gen:level=x.", "root", "+openshift:compatibility-gen:level=x",
			`cannot parse +openshift:compatibility-gen:level: expected integer, got "x" (at column 1 of the arguments)`},
		{"metadata-annotations-singular", "metadata:annotation instead of metadata:annotations.", "root", `+kubebuilder:metadata:annotation="a=b"`,
			`unknown argument "annotation" of +kubebuilder:metadata (arguments: annotations, labels); did you mean annotations?`},
		{"legacy-featuresets", "The legacy FeatureSet gate.", "field-string", "+openshift:enable:FeatureSets=TechPreviewNoUpgrade",
			"legacy FeatureSet markers are not supported; gate the field with +openshift:enable:FeatureGate or use the FeatureGateAware markers"},
		{"legacy-featureset-enum", "The legacy FeatureSet-aware enum.", "enum-type", "+openshift:validation:FeatureSetAwareEnum:featureSet=Default,enum=Red;Green",
			"legacy FeatureSet markers are not supported"},
		{"legacy-featureset-xvalidation", "The legacy FeatureSet-aware rule.", "spec-type", `+openshift:validation:FeatureSetAwareXValidation:featureSet=Default,rule="true"`,
			"legacy FeatureSet markers are not supported"},
		{"no-space-after-slashes", "A misspelt marker written //+ without a space is policed too.", "field-slice", "+kubebuilder:validation:Maxitems=3",
			notUnderstood + "; did you mean +kubebuilder:validation:MaxItems?"},
		{"block-comment", "A misspelt marker inside a /* */ comment.", "spec-fields", "+kubebuilder:validation:Maxitems=3",
			notUnderstood + "; did you mean +kubebuilder:validation:MaxItems?"},
		{"in-register-go", "A misspelt marker in another file of the package.", "register", "+kubebuilder:validation:Maxitems=3",
			notUnderstood + "; did you mean +kubebuilder:validation:MaxItems?"},
		{"on-package", "An unknown marker in the package comment.", "package", "+kubebuilder:validation:Optinal",
			notUnderstood + "; did you mean +kubebuilder:validation:Optional?"},
	}
	var out []tmpl
	for _, x := range cases {
		tp := marker("unknown-marker/"+x.name, x.desc, x.placeholder, x.line, at(x.placeholder)+": "+x.line+": "+x.want)
		switch x.name {
		case "no-space-after-slashes":
			tp.inject = []string{x.placeholder + ": //" + x.line}
		case "block-comment":
			tp.inject = []string{x.placeholder + ": /* " + x.line + " */"}
		}
		out = append(out, tp)
	}
	return out
}

// typeMarkerCases break the markers of the CRD root type.
func typeMarkerCases() []tmpl {
	withBugs := func(ts []tmpl) []tmpl {
		for i := range ts {
			ts[i].bug = knownBugs[ts[i].name]
		}
		return ts
	}
	return withBugs(rootMarkerTemplates())
}

func rootMarkerTemplates() []tmpl {
	const types = "widgets/v1/types.go"
	const resource = "+kubebuilder:resource:path=widgets,scope=Cluster"
	resourceLine := "@@" + types + "|+kubebuilder:resource:@@"
	rootLine := "@@" + types + "|type Widget struct@@"
	replaceResource := func(name, desc, with string, want ...string) tmpl {
		return tmpl{name: "root-marker/" + name, desc: desc, replace: []string{types + ": " + resource + " => " + with}, want: want}
	}
	root := func(name, desc, line string, want ...string) tmpl {
		full := append([]string{at("root") + ": " + line + ": " + want[0]}, want[1:]...)
		return marker("root-marker/"+name, desc, "root", line, full...)
	}
	return []tmpl{
		replaceResource("resource-missing", "A root type without +kubebuilder:resource.", "+corpus:removed",
			rootLine+": type Widget: is a CRD root type (+kubebuilder:object:root=true) but has no +kubebuilder:resource:path=<plural>,scope=<Cluster|Namespaced> marker"),
		root("scale-subresource-ignored", "Stage 1 cannot honour a scale subresource marker: strict mode makes it an error.", "+kubebuilder:subresource:scale:specpath=.spec.replicas,statuspath=.status.replicas",
			"is not supported by stage 1 and is ignored: the partial manifests get no scale subresource; add it with a manual override"),
		root("storageversion-ignored", "Stage 1 cannot honour +kubebuilder:storageversion: strict mode makes it an error.", "+kubebuilder:storageversion",
			"is not supported by stage 1 and is ignored", "(an error because the repository opted in to strict markers)"),
		root("resource-duplicate", "Two resource markers on one root type.", "+kubebuilder:resource:path=gadgets,scope=Cluster",
			"may be given only once on a root type (first given on line 15)"),
		replaceResource("resource-no-path", "A resource marker without path.", "+kubebuilder:resource:scope=Cluster",
			resourceLine+": +kubebuilder:resource:scope=Cluster: path=<plural> is missing"),
		replaceResource("resource-no-scope", "A resource marker without scope.", "+kubebuilder:resource:path=widgets",
			resourceLine+": +kubebuilder:resource:path=widgets: scope is missing: give scope=Cluster or scope=Namespaced"),
		replaceResource("resource-bad-scope", "scope=Global.", "+kubebuilder:resource:path=widgets,scope=Global",
			resourceLine+`: +kubebuilder:resource:path=widgets,scope=Global: scope "Global" is not valid: give scope=Cluster or scope=Namespaced`),
		replaceResource("resource-lower-case-scope", "scope=cluster (scopes are capitalised).", "+kubebuilder:resource:path=widgets,scope=cluster",
			resourceLine+`: +kubebuilder:resource:path=widgets,scope=cluster: scope "cluster" is not valid: give scope=Cluster or scope=Namespaced`),
		replaceResource("resource-upper-case-path", "path=Widgets (plurals are lower-case).", "+kubebuilder:resource:path=Widgets,scope=Cluster",
			resourceLine+`: +kubebuilder:resource:path=Widgets,scope=Cluster: path "Widgets" is not a valid plural resource name`),
		replaceResource("resource-path-with-slash", "path=widgets/v1.", "+kubebuilder:resource:path=widgets/v1,scope=Cluster",
			resourceLine+`: +kubebuilder:resource:path=widgets/v1,scope=Cluster: path "widgets/v1" is not a valid plural resource name`),
		replaceResource("resource-empty-path", "path= with no value.", "+kubebuilder:resource:path=,scope=Cluster",
			resourceLine+": +kubebuilder:resource:path=,scope=Cluster: path=<plural> is missing"),
		replaceResource("resource-misspelt-argument", "shortname instead of shortName.", "+kubebuilder:resource:path=widgets,scope=Cluster,shortname=wdg",
			resourceLine+`: +kubebuilder:resource:path=widgets,scope=Cluster,shortname=wdg: unknown argument "shortname" of +kubebuilder:resource`, "did you mean shortName?"),
		replaceResource("resource-shortnames-comma", "Short names separated by ','.", "+kubebuilder:resource:path=widgets,scope=Cluster,shortName=wdg,wd",
			resourceLine+`: +kubebuilder:resource:path=widgets,scope=Cluster,shortName=wdg,wd: cannot parse +kubebuilder:resource: expected equals, got "" (at column 44 of the arguments); `+listHint),
		root("printcolumn-no-jsonpath", "A printer column without JSONPath.", "+kubebuilder:printcolumn:name=Size,type=integer",
			`cannot parse +kubebuilder:printcolumn: missing argument "JSONPath" (at column 23 of the arguments)`),
		root("printcolumn-jsonpath-case", "jsonPath instead of JSONPath.", "+kubebuilder:printcolumn:name=Size,type=integer,jsonPath=.spec.size",
			`unknown argument "jsonPath" of +kubebuilder:printcolumn`, "did you mean JSONPath?"),
		root("printcolumn-no-name", "A printer column without name.", "+kubebuilder:printcolumn:type=integer,JSONPath=.spec.size",
			`cannot parse +kubebuilder:printcolumn: missing argument "name" (at column 33 of the arguments)`),
		root("printcolumn-priority-not-a-number", "priority=high.", "+kubebuilder:printcolumn:name=Size,type=integer,JSONPath=.spec.size,priority=high",
			`cannot parse +kubebuilder:printcolumn: expected integer, got "high" (at column 53 of the arguments)`),
		root("file-pattern-duplicate", "A second file-pattern marker.", "+openshift:file-pattern=operatorName=gadgets",
			"may be given only once on a root type (first given on line 8)"),
		root("file-pattern-empty", "file-pattern= with no value.", "+openshift:file-pattern=",
			"cannot parse +openshift:file-pattern: expected cvoRunLevel=..,operatorName=..,operatorOrdering=.. after '='"),
		root("file-pattern-no-value", "file-pattern without '='.", "+openshift:file-pattern",
			"cannot parse +openshift:file-pattern: expected cvoRunLevel=..,operatorName=..,operatorOrdering=.. after '='"),
		root("file-pattern-unknown-key", "operator instead of operatorName: a strict finding.", "+openshift:file-pattern=cvoRunLevel=0000_10,operator=widgets",
			`unknown argument "operator" of +openshift:file-pattern (arguments: cvoRunLevel, operatorName, operatorOrdering); did you mean operatorName?; the CRD stages ignore it`),
		root("file-pattern-operator-component", "openshift/api's operatorComponent, which no stage reads: a strict finding.",
			"+openshift:file-pattern=cvoRunLevel=0000_25,operatorName=etcd,operatorOrdering=01,operatorComponent=two-node-fencing",
			`unknown argument "operatorComponent" of +openshift:file-pattern (arguments: cvoRunLevel, operatorName, operatorOrdering); did you mean operatorName?; the CRD stages ignore it`),
		root("file-pattern-key-twice", "operatorName twice.", "+openshift:file-pattern=operatorName=a,operatorName=b",
			`cannot parse +openshift:file-pattern: argument "operatorName" given twice`),
		root("file-pattern-no-equals", "A piece without '='.", "+openshift:file-pattern=cvoRunLevel",
			`cannot parse +openshift:file-pattern: argument "cvoRunLevel": expected key=value`),
		root("file-pattern-empty-value", "operatorName= with no value.", "+openshift:file-pattern=cvoRunLevel=0000_10,operatorName=",
			`cannot parse +openshift:file-pattern: argument "operatorName=": expected key=value`),
		root("api-approved-duplicate", "A second approval URL.", "+openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/8",
			"may be given only once on a root type (first given on line 7)"),
		root("api-approved-empty", "An approval marker without URL.", "+openshift:api-approved.openshift.io=",
			"cannot parse +openshift:api-approved.openshift.io: expected a value after '='"),
		root("api-approved-no-value", "An approval marker without '='.", "+openshift:api-approved.openshift.io",
			"cannot parse +openshift:api-approved.openshift.io: expected a value after '='"),
		root("capability-no-value", "A capability marker without '='.", "+openshift:capability",
			"cannot parse +openshift:capability: expected a value after '='"),
		root("capability-duplicate", "A second capability.", "+openshift:capability=Gadgets",
			"may be given only once on a root type (first given on line 9)"),
		root("capability-empty", "A capability marker without name.", "+openshift:capability=",
			"cannot parse +openshift:capability: expected a value after '='"),
		root("metadata-annotation-no-equals", "An annotation without '='.", `+kubebuilder:metadata:annotations="example.openshift.io/owner"`,
			`annotations item "example.openshift.io/owner" is not of the form "<key>=<value>"`),
		root("metadata-annotation-no-key", "An annotation without key.", `+kubebuilder:metadata:annotations="=api-team"`,
			`annotations item "=api-team" is not of the form "<key>=<value>"`),
		root("metadata-label-no-equals", "A label without '='.", `+kubebuilder:metadata:labels="tier"`,
			`labels item "tier" is not of the form "<key>=<value>"`),
		root("metadata-annotation-gate-prefix", "An annotation stage 1 owns.", `+kubebuilder:metadata:annotations="feature-gate.release.openshift.io/WidgetLimits=true"`,
			"annotation feature-gate.release.openshift.io/WidgetLimits uses the prefix feature-gate.release.openshift.io/, which stage 1 sets on each partial manifest from its gates"),
		root("object-root-false", "object:root=false contradicts object:root=true.", "+kubebuilder:object:root=false",
			"contradicts +kubebuilder:object:root=true on type Widget"),
		root("object-root-not-bool", "object:root=yes.", "+kubebuilder:object:root=yes",
			`cannot parse +kubebuilder:object:root: expected true or false, got "yes" (at column 1 of the arguments)`),
		root("subresource-status-with-value", "subresource:status takes no value.", "+kubebuilder:subresource:status=true",
			`cannot parse +kubebuilder:subresource:status: extra arguments provided: "true" (at column 1 of the arguments)`),
		{name: "root-marker/crd-name-duplicate", desc: "Two root types define the same CRD.",
			inject: []string{
				"decls: // Gadget is another root type that claims the widgets resource.",
				"decls: //",
				"decls: // +kubebuilder:object:root=true",
				"decls: // +kubebuilder:resource:path=widgets,scope=Cluster",
				"decls: type Gadget struct {",
				"decls: 	metav1.TypeMeta   `json:\",inline\"`",
				"decls: 	metav1.ObjectMeta `json:\"metadata,omitempty\"`",
				"decls: }",
			},
			want: []string{rootLine + ": type Widget: defines CRD widgets.widgets.example.openshift.io, which type Gadget (widgets/v1/types.go:"}},
	}
}

// packageMarkerCases break the markers of doc.go.
func packageMarkerCases() []tmpl {
	const doc = "widgets/v1/doc.go"
	const group = "+groupName=widgets.example.openshift.io"
	groupLine := "@@" + doc + "|+groupName=@@"
	replaceGroup := func(name, desc, with string, want ...string) tmpl {
		return tmpl{name: "package-marker/" + name, desc: desc, replace: []string{doc + ": " + group + " => " + with}, want: want}
	}
	return []tmpl{
		replaceGroup("groupname-missing", "No +groupName in doc.go.", "+corpus:removed",
			doc+": +groupName: missing: a package processed by stage 1 needs +groupName=<group> in its doc.go"),
		replaceGroup("groupname-mismatch", "+groupName differs from GroupVersion's group.", "+groupName=gadgets.example.openshift.io",
			groupLine+`: +groupName=gadgets.example.openshift.io: does not match GroupVersion's Group "widgets.example.openshift.io"`),
		replaceGroup("groupname-empty", "+groupName= with no value.", "+groupName=",
			groupLine+": +groupName=: has no value: write +groupName=<value>"),
		replaceGroup("groupname-lower-case", "+groupname is not +groupName.", "+groupname=widgets.example.openshift.io",
			doc+": +groupName: missing"),
		{name: "package-marker/doc-go-missing", desc: "A version package without doc.go has no +groupName.", del: []string{doc},
			want: []string{"widgets/v1: +groupName: missing: a package processed by stage 1 needs +groupName=<group> in its doc.go"}},
		{name: "package-marker/schema-gen-yes", desc: "featuregated-schema-gen=yes.",
			replace: []string{doc + ": +openshift:featuregated-schema-gen=true => +openshift:featuregated-schema-gen=yes"},
			want: []string{"@@" + doc + "|+openshift:featuregated-schema-gen=yes@@: +openshift:featuregated-schema-gen=yes: " +
				`cannot parse +openshift:featuregated-schema-gen: expected true or false, got "yes" (at column 1 of the arguments)`}},
		{name: "package-marker/schema-gen-no-value", desc: "featuregated-schema-gen without a value.",
			replace: []string{doc + ": +openshift:featuregated-schema-gen=true => +openshift:featuregated-schema-gen"},
			want: []string{"@@" + doc + "|+openshift:featuregated-schema-gen@@: +openshift:featuregated-schema-gen: " +
				"+openshift:featuregated-schema-gen needs a value: write +openshift:featuregated-schema-gen=<value>"}},
		marker("package-marker/groupname-twice", "A second, different +groupName.", "package", "+groupName=gadgets.example.openshift.io",
			"@@"+doc+"|+groupName=widgets@@: +groupName=widgets.example.openshift.io: contradicts +groupName=gadgets.example.openshift.io on line 1"),
	}
}

const (
	registerGo = "widgets/v1/register.go"
	typesGo    = "widgets/v1/types.go"
	gvLiteral  = `schema.GroupVersion{Group: GroupName, Version: "v1"}`
)

// gadgetsPackage is a second API package, for cases about several versions.
func gadgetsPackage(dir, pkg, group, version string) map[string]string {
	return map[string]string{
		dir + "/doc.go": "// +groupName=" + group + "\n// +openshift:featuregated-schema-gen=true\n\n// Package " + pkg + " is another version.\npackage " + pkg + "\n",
		dir + "/register.go": "package " + pkg + "\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n" +
			"// GroupVersion identifies this package's API group and version.\nvar GroupVersion = schema.GroupVersion{Group: \"" + group + "\", Version: \"" + version + "\"}\n",
	}
}

// discoveryCases break how API packages are found.
func discoveryCases() []tmpl {
	gvLine := "@@" + registerGo + "|var GroupVersion@@"
	replaceGV := func(name, desc, with string, want ...string) tmpl {
		return tmpl{name: "discovery/" + name, desc: desc, replace: []string{registerGo + ": " + gvLiteral + " => " + with}, want: want}
	}
	return []tmpl{
		replaceGV("group-unresolved", "Group names an identifier declared nowhere in the package.", `schema.GroupVersion{Group: groupFromElsewhere, Version: "v1"}`,
			gvLine+": GroupVersion.Group: groupFromElsewhere is not a package-level constant or variable initialised with a string literal"),
		replaceGV("group-function-call", "Group is computed.", `schema.GroupVersion{Group: string(GroupName), Version: "v1"}`,
			gvLine+": GroupVersion.Group: must be a string literal or the name of a package-level string constant"),
		replaceGV("version-integer", "Version is an integer literal.", `schema.GroupVersion{Group: GroupName, Version: 1}`,
			gvLine+": GroupVersion.Version: must be a string literal or the name of a package-level string constant"),
		replaceGV("version-missing", "GroupVersion without Version.", `schema.GroupVersion{Group: GroupName}`,
			gvLine+": GroupVersion: has no Version"),
		replaceGV("version-directory-mismatch", "GroupVersion says v2 but the directory is v1.", `schema.GroupVersion{Group: GroupName, Version: "v2"}`,
			gvLine+`: GroupVersion: declares version "v2" but the package directory is "v1": the CRD stages name the version after the directory, so they must agree`),
		{name: "discovery/not-a-literal-filtered", desc: "A GroupVersion that is not a literal hides the package; asking for it by name fails.",
			replace: []string{registerGo + ": " + gvLiteral + " => " + "newGroupVersion()"},
			inject:  []string{"register: func newGroupVersion() schema.GroupVersion { return schema.GroupVersion{Group: GroupName, Version: \"v1\"} }"},
			args:    defaultArgs + " --api-group-versions widgets.example.openshift.io/v1",
			want: []string{"warning: " + gvLine + ": GroupVersion: is not initialised with a schema.GroupVersion{Group: ..., Version: ...} literal; package ignored",
				"--api-group-versions: widgets.example.openshift.io/v1 match(es) no API group-version"}},
		{name: "discovery/versions-in-different-directories", desc: "v2 of the widgets group lives outside the group directory.",
			files: gadgetsPackage("gadgets/v2", "v2", "widgets.example.openshift.io", "v2"),
			want:  []string{`widgets/v1/register.go:13: GroupVersion: API group "widgets.example.openshift.io" has versions in different directories (gadgets/v2 and widgets/v1): all versions of a group must share one parent directory`}},
		{name: "discovery/same-version-twice", desc: "Two packages of the group declare v1; one of them sits in a directory named otherwise.",
			files: gadgetsPackage("widgets/v1copy", "v1copy", "widgets.example.openshift.io", "v1"),
			want:  []string{`widgets/v1copy/register.go:6: GroupVersion: declares version "v1" but the package directory is "v1copy"`}},
		{name: "discovery/syntax-error", desc: "A Go syntax error in an API package: the package cannot be skipped silently.",
			inject: []string{"decls: type Broken struct {"},
			want:   []string{typesGo + ":97: Go syntax error: expected '}', found 'EOF'"}},
		{name: "discovery/two-package-names", desc: "A file of the version directory declares another package.",
			files: map[string]string{"widgets/v1/other.go": "package other\n"},
			want:  []string{"widgets/v1/other.go:1: package other: the directory already holds package v1 (doc.go): the go command builds a directory as one package"}},
		{name: "discovery/group-empty", desc: "An empty group (the core group) cannot name a CRD.",
			replace: []string{registerGo + `: const GroupName = "widgets.example.openshift.io" => const GroupName = ""`},
			want:    []string{"@@widgets/v1/doc.go|+groupName=@@: +groupName=widgets.example.openshift.io: does not match GroupVersion's Group \"\""}},
		{name: "discovery/base-dir-without-api", desc: "--base-dir names a directory without API packages and --api-group-versions asks for one.",
			args: "crd-manifests --base-dir $TREE/payload-manifests --api-group-versions widgets.example.openshift.io/v1",
			want: []string{"--api-group-versions: widgets.example.openshift.io/v1 match(es) no API group-version (entries are <group>/<version>, comma-separated); " +
				"the base directory holds no API group-version at all"}},
	}
}

// goTypeCases give the API types Go types a CRD schema cannot express.
func goTypeCases() []tmpl {
	type c struct{ name, desc, field, want string }
	cases := []c{
		{"interface-empty", "An empty interface.", "Extra interface{} `json:\"extra,omitempty\"`", "has type interface{}: interfaces other than runtime.Object are not supported in CRD types"},
		{"any", "any.", "Extra any `json:\"extra,omitempty\"`", "has type any: interfaces other than runtime.Object are not supported in CRD types"},
		{"error", "The error interface.", "Failure error `json:\"failure,omitempty\"`", "has type error: interfaces other than runtime.Object are not supported in CRD types"},
		{"map-of-any", "A map of any.", "Bag map[string]any `json:\"bag,omitempty\"`", "has type map[string]any: interfaces other than runtime.Object are not supported in CRD types"},
		{"pointer-to-interface", "A pointer to an interface.", "Failure *error `json:\"failure,omitempty\"`", "has type *error: interfaces other than runtime.Object are not supported in CRD types"},
		{"slice-of-interfaces", "A slice of interfaces.", "Failures []error `json:\"failures,omitempty\"`", "has type []error: interfaces other than runtime.Object are not supported in CRD types"},
		{"channel", "A channel.", "Events chan string `json:\"events,omitempty\"`", "has type chan string: channels cannot be part of a CRD type"},
		{"function", "A function.", "Hook func() error `json:\"hook,omitempty\"`", "has type func() error: functions cannot be part of a CRD type"},
		{"slice-of-functions", "A slice of functions.", "Hooks []func() `json:\"hooks,omitempty\"`", "has type []func(): functions cannot be part of a CRD type"},
		{"map-of-functions", "A map of functions.", "Hooks map[string]func() `json:\"hooks,omitempty\"`", "has type map[string]func(): functions cannot be part of a CRD type"},
		{"array", "A fixed-size array.", "Fixed [4]string `json:\"fixed,omitempty\"`", "has type [4]string: arrays are not supported in CRD types; use a slice"},
		{"array-of-structs", "An array of structs.", "Statuses [2]WidgetStatus `json:\"statuses,omitempty\"`", "has type [2]v1.WidgetStatus: arrays are not supported in CRD types; use a slice"},
		{"unresolved", "A type declared nowhere.", "Missing undefinedType `json:\"missing,omitempty\"`", "the type of this field cannot be resolved"},
	}
	// controller-tools reports these at the field, without naming it.
	bare := []c{
		{"complex", "A complex number.", "Ratio complex128 `json:\"ratio,omitempty\"`", `unsupported type "complex128"`},
		{"float", "A float: controller-tools refuses them by default.", "Ratio float64 `json:\"ratio,omitempty\"`", "found float, the usage of which is highly discouraged"},
		{"map-with-struct-keys", "A map keyed by a struct.", "Index map[WidgetStatus]string `json:\"index,omitempty\"`", "map keys must be strings or implement encoding.TextMarshaler, not struct{"},
	}
	var out []tmpl
	for _, x := range bare {
		out = append(out, tmpl{name: "go-type/" + x.name, desc: x.desc, inject: []string{"spec-fields: " + x.field},
			want: []string{at("spec-fields") + ": " + x.want}})
	}
	for _, x := range cases {
		out = append(out, tmpl{name: "go-type/" + x.name, desc: x.desc + " The schema cannot express it.",
			inject: []string{"spec-fields: " + x.field},
			want:   []string{at("spec-fields") + ": WidgetSpec." + fieldName(x.field) + ": " + x.want}})
	}
	out = append(out,
		tmpl{name: "go-type/in-named-type", desc: "A channel inside a struct type reached through a field.",
			inject: []string{
				"spec-fields: Inner InnerSpec `json:\"inner,omitempty\"`",
				"decls: // InnerSpec hides a channel.",
				"decls: type InnerSpec struct {",
				"decls: 	Events chan string `json:\"events,omitempty\"`",
				"decls: }",
			},
			want: []string{"{@decls#3}: InnerSpec.Events: has type chan string: channels cannot be part of a CRD type (reached from Widget.Spec.Inner.Events)"}},
		tmpl{name: "go-type/in-other-file", desc: "A function-typed field in a type declared in another file of the package.",
			inject: []string{"spec-fields: Extra Extra `json:\"extra,omitempty\"`"},
			files: map[string]string{"widgets/v1/extra.go": "package v1\n\n// Extra is declared in its own file.\ntype Extra struct {\n" +
				"\t// callback cannot be serialised.\n\tCallback func() `json:\"callback,omitempty\"`\n}\n"},
			want: []string{"widgets/v1/extra.go:6: Extra.Callback: has type func(): functions cannot be part of a CRD type (reached from Widget.Spec.Extra.Callback)"}},
		tmpl{name: "go-type/named-interface-type", desc: "A named interface type used as a field type.",
			inject: []string{
				"spec-fields: Shape Shape `json:\"shape,omitempty\"`",
				"decls: // Shape is an interface.",
				"decls: type Shape interface{ Area() int }",
			},
			want: []string{at("spec-fields") + ": WidgetSpec.Shape: has type v1.Shape: interfaces other than runtime.Object are not supported in CRD types"}},
		tmpl{name: "go-type/type-error", desc: "A field whose type is misspelt.",
			inject: []string{"spec-fields: Other Colour `json:\"other,omitempty\"`"},
			want:   []string{at("spec-fields") + ": WidgetSpec.Other: the type of this field cannot be resolved"}},
	)
	return out
}

// fieldName is the Go name of a field declaration line.
func fieldName(decl string) string {
	name, _, _ := strings.Cut(decl, " ")
	return name
}

// codegenYAMLCases break the group's .codegen.yaml.
func codegenYAMLCases() []tmpl {
	const cfg = "widgets/.codegen.yaml"
	c := func(name, desc, content string, want ...string) tmpl {
		return tmpl{name: "codegen-yaml/" + name, desc: desc, files: map[string]string{cfg: content}, want: want}
	}
	return []tmpl{
		c("invalid-yaml", "An unterminated flow sequence.", "schemapatch: [\n",
			cfg+":1: invalid YAML: did not find expected node content"),
		c("tab-indentation", "A tab where YAML wants spaces.", "schemapatch:\n\tdisabled: true\n",
			cfg+":2: invalid YAML: found character that cannot start any token"),
		c("list", "A list instead of a mapping.", "- schemapatch\n- manifestMerge\n",
			cfg+":1: must be a mapping of generator names to their settings"),
		c("scalar", "A bare word.", "disabled\n",
			cfg+":1: must be a mapping of generator names to their settings"),
		c("unknown-generator-case", "schemaPatch instead of schemapatch.", "schemaPatch:\n  disabled: true\n",
			cfg+":1: schemaPatch: unknown key; known keys are "),
		c("unknown-generator", "A generator nobody knows.", "crdgen:\n  disabled: true\n",
			cfg+":1: crdgen: unknown key; known keys are "),
		c("unknown-stage-key", "disable instead of disabled.", "manifestMerge:\n  disable: true\n",
			cfg+":2: manifestMerge.disable: unknown key; manifestMerge accepts disabled"),
		c("unknown-schemapatch-key", "requiredFeatureSet instead of requiredFeatureSets.", "schemapatch:\n  requiredFeatureSet:\n  - Default\n",
			cfg+":2: schemapatch.requiredFeatureSet: unknown key; schemapatch accepts disabled, requiredFeatureSets"),
		c("disabled-not-bool", "disabled: maybe.", "emptyPartialSchema:\n  disabled: maybe\n",
			cfg+":2: emptyPartialSchema.disabled: must be true or false"),
		c("stage-scalar", "A stage set to a scalar.", "schemapatch: off\n",
			cfg+":1: schemapatch: must be a mapping"),
		c("stage-list", "A stage set to a list.", "manifestMerge:\n- disabled\n",
			cfg+":2: manifestMerge: must be a mapping"),
		c("required-feature-sets-scalar", "requiredFeatureSets is a list.", "schemapatch:\n  requiredFeatureSets: TechPreviewNoUpgrade\n",
			cfg+":2: schemapatch.requiredFeatureSets: must be a list of strings"),
		c("duplicate-key", "Two schemapatch sections that disagree.", "schemapatch:\n  disabled: true\nschemapatch:\n  disabled: false\n",
			cfg+":3: schemapatch: is given twice (first on line 1)"),
		c("duplicate-stage-key", "disabled given twice with different values.", "manifestMerge:\n  disabled: true\n  disabled: false\n",
			cfg+":3: manifestMerge.disabled: is given twice (first on line 2)"),
		c("compat-unknown-key", "compat.accept instead of compat.accepted.", "compat:\n  accept: []\n",
			cfg+":2: compat.accept: unknown key; compat accepts accepted"),
		c("compat-accepted-scalar", "compat.accepted is a list.", "compat:\n  accepted: all\n",
			cfg+":2: compat.accepted: must be a list of entries with crd, check, path and reason"),
		c("compat-accepted-no-reason", "An accepted finding without a reason.", "compat:\n  accepted:\n  - crd: widgets.widgets.example.openshift.io\n    check: enum\n    path: ^.spec.mode\n",
			cfg+":3: compat.accepted: entry lacks reason"),
		c("compat-accepted-empty", "An accepted finding with an empty path.", "compat:\n  accepted:\n  - crd: widgets.widgets.example.openshift.io\n    check: enum\n    path: \"\"\n    reason: fine\n",
			cfg+":5: compat.accepted.path: must be a non-empty string"),
		c("compat-accepted-unknown-key", "crdName instead of crd.", "compat:\n  accepted:\n  - crdName: widgets.widgets.example.openshift.io\n    check: enum\n    path: ^.spec.mode\n    reason: fine\n",
			cfg+":3: compat.accepted.crdName: unknown key; compat.accepted accepts check, crd, path, reason"),
		c("compat-accepted-twice", "The same finding accepted twice.", "compat:\n  accepted:\n  - {crd: w.example.io, check: enum, path: ^.spec.mode, reason: one}\n  - {crd: w.example.io, check: enum, path: ^.spec.mode, reason: two}\n",
			cfg+":4: compat.accepted: accepts w.example.io enum ^.spec.mode again (first on line 3)"),
		{name: "codegen-yaml/directory", desc: ".codegen.yaml is a directory.", del: []string{cfg}, mkdir: []string{cfg},
			want: []string{cfg + ": cannot be read: is a directory"}},
	}
}

// overrideCases break the hand-written manual overrides.
func overrideCases() []tmpl {
	const dir = "widgets/v1/manual-override-crd-manifests/widgets.widgets.example.openshift.io/"
	const file = dir + "AAA_ungated.yaml"
	const header = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    feature-gate.release.openshift.io/: \"true\"\n  name: widgets.widgets.example.openshift.io\n"
	o := func(name, desc, content string, want ...string) tmpl {
		return tmpl{name: "override/" + name, desc: desc, files: map[string]string{file: content}, want: want}
	}
	return []tmpl{
		o("invalid-yaml", "An override that is not YAML.", header+"spec: [\n",
			file+":7: invalid YAML: error converting YAML to JSON: yaml: line 7: did not find expected node content"),
		o("unknown-spec-field", "spec.shortNames instead of spec.names.shortNames.", header+"spec:\n  shortNames:\n  - wdg\n",
			file+": does not fit the CustomResourceDefinition schema: .spec.shortNames: field not declared in schema"),
		o("unknown-metadata-field", "metadata.nmae.", "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  nmae: widgets.widgets.example.openshift.io\n",
			file+": does not fit the CustomResourceDefinition schema: .metadata.nmae: field not declared in schema"),
		o("wrong-api-version", "apiextensions.k8s.io/v1beta1.", strings.Replace(header, "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1)+"spec: {}\n",
			file+`: apiVersion: is "apiextensions.k8s.io/v1beta1", expected "apiextensions.k8s.io/v1"`),
		o("wrong-kind", "kind: Deployment.", strings.Replace(header, "CustomResourceDefinition", "Deployment", 1)+"spec: {}\n",
			file+`: kind: is "Deployment", expected "CustomResourceDefinition"`),
		o("wrong-name", "An override naming another CRD.", strings.Replace(header, "name: widgets.widgets", "name: gadgets.widgets", 1)+"spec: {}\n",
			file+`: metadata.name: is "gadgets.widgets.example.openshift.io" but the manifest is in the directory of CRD widgets.widgets.example.openshift.io`),
		o("empty", "An empty override file.", "",
			file+": empty manifest"),
		{name: "override/two-documents", desc: "Two YAML documents in one override (run by the merge stage alone: crd-manifests lets stage 2 rewrite the file first).",
			args: "crd-manifest-merge --base-dir $TREE", files: map[string]string{file: header + "spec: {}\n---\n" + header + "spec: {}\n"},
			want: []string{file + ": holds 2 YAML documents; a manifest is exactly one CustomResourceDefinition"}},
		o("annotation-not-string", "An annotation whose value is a YAML boolean.", strings.Replace(header, `: "true"`, ": true", 1)+"spec: {}\n",
			file+": metadata.annotations.feature-gate.release.openshift.io/: is true, not a string; quote the value"),
		o("names-as-list", "spec.names given as a list.", header+"spec:\n  names:\n  - wdg\n",
			file+": spec.names: must be a mapping"),
		{name: "override/non-yaml-file", desc: "A text file among the overrides.", files: map[string]string{dir + "NOTES.txt": "remember the scale subresource\n"},
			want: []string{dir + "NOTES.txt: unexpected file: a CRD directory holds only .yaml manifests"}},
		{name: "override/yml-extension", desc: "An override with the .yml extension is not read.", files: map[string]string{dir + "ZZ_extra.yml": header + "spec: {}\n"},
			want: []string{dir + "ZZ_extra.yml: unexpected file: a CRD directory holds only .yaml manifests"}},
		{name: "override/sub-directory", desc: "A directory among the overrides.", mkdir: []string{dir + "old"},
			want: []string{dir + "old: unexpected directory: a CRD directory holds only .yaml manifests"}},
	}
}

// payloadCases break the payload FeatureGate directory.
func payloadCases() []tmpl {
	const dir = "payload-manifests/featuregates/"
	files := []string{"featureGate-4-Hypershift-Default.yaml", "featureGate-4-Hypershift-TechPreviewNoUpgrade.yaml",
		"featureGate-4-SelfManagedHA-Default.yaml", "featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml"}
	const smha = dir + "featureGate-4-SelfManagedHA-Default.yaml"
	p := func(name, desc string, t tmpl) tmpl {
		t.name, t.desc = "payload/"+name, desc
		return t
	}
	var unversioned []string
	for _, f := range files {
		unversioned = append(unversioned, dir+f+`: "release.openshift.io/major-version": "4" => "release.openshift.io/old-version": "4"`)
	}
	var allFiles []string
	for _, f := range files {
		allFiles = append(allFiles, dir+f)
	}
	return []tmpl{
		p("flag-missing-directory", "--manifest-merge:payload-manifest-path names nothing.",
			tmpl{args: defaultArgs + " --manifest-merge:payload-manifest-path $TREE/payload-manifests/nowhere",
				want: []string{"payload-manifests/nowhere: the payload FeatureGate directory does not exist"}}),
		p("directory-deleted", "The default payload directory is missing.",
			tmpl{del: []string{"payload-manifests"}, want: []string{"payload-manifests/featuregates: the payload FeatureGate directory does not exist"}}),
		p("directory-empty", "The payload directory holds no file.",
			tmpl{del: allFiles, want: []string{"payload-manifests/featuregates: no FeatureGate manifest (.yaml, .yml or .json file)"}}),
		p("only-legacy-files", "Every payload file lacks the major-version annotation but keeps its versioned name: the pre-version format reads featureGate-<Profile>-<FeatureSet>.yaml.",
			tmpl{replace: unversioned, want: []string{"payload-manifests/featuregates: featureGate-Hypershift-Default.yaml is missing",
				"payload-manifests/featuregates: featureGate-SelfManagedHA-TechPreviewNoUpgrade.yaml is missing"}}),
		p("only-other-files", "The payload directory holds only files that are not manifests.",
			tmpl{del: allFiles, files: map[string]string{dir + "README.md": "rendered by features/\n"}, mkdir: []string{dir + "old"},
				want: []string{"payload-manifests/featuregates: no FeatureGate manifest (.yaml, .yml or .json file)"}}),
		p("malformed-json", "A payload file that is not JSON.",
			tmpl{files: map[string]string{smha: "{\n"}, want: []string{dir + "featureGate-4-SelfManagedHA-Default.yaml: not valid JSON or YAML"}}),
		p("empty-file", "An empty payload file.",
			tmpl{files: map[string]string{smha: ""}, want: []string{dir + "featureGate-4-SelfManagedHA-Default.yaml: empty document"}}),
		p("wrong-kind", "kind: FeatureGates.",
			tmpl{replace: []string{smha + `: "kind": "FeatureGate" => "kind": "FeatureGates"`}, want: []string{dir + `featureGate-4-SelfManagedHA-Default.yaml: kind is "FeatureGates", want FeatureGate`}}),
		p("no-profile", "No cluster-profile annotation.",
			tmpl{replace: []string{smha + `: "false-except-for-the-config-operator" => "true"`},
				want: []string{dir + `featureGate-4-SelfManagedHA-Default.yaml: want exactly one annotation with value "false-except-for-the-config-operator" identifying the cluster profile, found 0`}}),
		p("bad-major-version", "major-version: four.",
			tmpl{replace: []string{smha + `: "release.openshift.io/major-version": "4" => "release.openshift.io/major-version": "four"`},
				want: []string{dir + `featureGate-4-SelfManagedHA-Default.yaml: annotation release.openshift.io/major-version="four": "four" is not a positive integer`}}),
		p("unknown-feature-set", "spec.featureSet is no known feature set.",
			tmpl{replace: []string{dir + "featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: " + `"featureSet": "TechPreviewNoUpgrade" => "featureSet": "Preview"`},
				want: []string{dir + `featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: spec.featureSet "Preview" is not one of [Default DevPreviewNoUpgrade OKD TechPreviewNoUpgrade]`}}),
		p("feature-set-contradiction", "The feature-set annotation contradicts spec.featureSet.",
			tmpl{replace: []string{smha + `: "release.openshift.io/feature-set": "Default" => "release.openshift.io/feature-set": "TechPreviewNoUpgrade"`},
				want: []string{dir + `featureGate-4-SelfManagedHA-Default.yaml: annotation release.openshift.io/feature-set="TechPreviewNoUpgrade" contradicts spec.featureSet ""`}}),
		p("overlapping-files", "Two files cover the same version, profile and feature set.",
			tmpl{files: map[string]string{dir + "featureGate-4-SelfManagedHA-Default-copy.yaml": baseFile(smha)},
				want: []string{"payload-manifests/featuregates: featureGate-4-SelfManagedHA-Default-copy.yaml and featureGate-4-SelfManagedHA-Default.yaml both cover version 4 of Default on SelfManagedHA"}}),
		p("gate-enabled-and-disabled", "A gate both enabled and disabled.",
			tmpl{replace: []string{dir + "featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: " + `"disabled": [],` + " => " + `"disabled": [{"name": "WidgetLimits"}],`},
				want: []string{dir + `featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: gate "WidgetLimits" is both enabled and disabled`}}),
		p("no-feature-gates-entry", "status.featureGates is empty.",
			tmpl{files: map[string]string{smha: `{"apiVersion": "config.openshift.io/v1", "kind": "FeatureGate", "metadata": {"name": "cluster", "annotations": {"include.release.openshift.io/self-managed-high-availability": "false-except-for-the-config-operator", "release.openshift.io/major-version": "4"}}, "spec": {}, "status": {"featureGates": []}}` + "\n"},
				want: []string{dir + "featureGate-4-SelfManagedHA-Default.yaml: status.featureGates has no entry"}}),
		p("custom-feature-set", "A payload file for CustomNoUpgrade, which is never rendered.",
			tmpl{replace: []string{dir + "featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: " + `"featureSet": "TechPreviewNoUpgrade" => "featureSet": "CustomNoUpgrade"`},
				want: []string{dir + `featureGate-4-SelfManagedHA-TechPreviewNoUpgrade.yaml: spec.featureSet "CustomNoUpgrade" is not one of [Default DevPreviewNoUpgrade OKD TechPreviewNoUpgrade]`}}),
		p("path-is-a-file", "--manifest-merge:payload-manifest-path names a file.",
			tmpl{args: defaultArgs + " --manifest-merge:payload-manifest-path $TREE/" + smha, want: []string{smha + ": is a file, not the payload FeatureGate directory"}}),
		p("gate-dropped", "The payload no longer lists a gate the markers use.",
			tmpl{replace: func() []string {
				var r []string
				for _, f := range files {
					r = append(r, dir+f+`: "name": "WidgetLimits" => "name": "WidgetLimitsRenamed"`)
				}
				return r
			}(), want: []string{"@@" + typesGo + "|+openshift:enable:FeatureGate=WidgetLimits@@: +openshift:enable:FeatureGate=WidgetLimits: FeatureGate \"WidgetLimits\" " + notListed,
				"closest known gates: WidgetSizing, WidgetColors, WidgetLimitsRenamed"}}),
	}
}

// baseFile returns the content of a file of the base tree.
func baseFile(rel string) string {
	data, err := os.ReadFile(filepath.Join(baseDir, filepath.FromSlash(rel)))
	if err != nil {
		panic(err)
	}
	return string(data)
}

// outputTreeCases put directories and broken files where the stages read
// or write their output.
func outputTreeCases() []tmpl {
	const v1 = "widgets/v1/"
	const partialDir = v1 + "zz_generated.featuregated-crd-manifests/widgets.widgets.example.openshift.io/"
	const summary = v1 + "zz_generated.featuregated-crd-manifests.yaml"
	const merged = v1 + "zz_generated.crd-manifests/"
	const defaultCRD = merged + "0000_10_widgets_01_widgets-Default.crd.yaml"
	o := func(name, desc string, t tmpl) tmpl {
		t.name, t.desc = "output-tree/"+name, desc
		return t
	}
	partial := baseFile(partialDir + "WidgetLimits.yaml")
	return []tmpl{
		o("partial-dir-sub-directory", "A directory inside a CRD's partial-manifest directory.",
			tmpl{mkdir: []string{partialDir + "old"}, want: []string{partialDir + "old: is a directory inside the partial manifests of CRD widgets.widgets.example.openshift.io, which hold only generated files: remove it"}}),
		o("merged-dir-sub-directory", "A directory inside zz_generated.crd-manifests.",
			tmpl{mkdir: []string{merged + "old"}, want: []string{merged + "old: unexpected directory in the output directory; remove it"}}),
		o("partial-manifest-is-directory", "A directory where stage 1 writes a partial manifest.",
			tmpl{del: []string{partialDir + "WidgetLimits.yaml"}, mkdir: []string{partialDir + "WidgetLimits.yaml"},
				want: []string{partialDir + "WidgetLimits.yaml: is a directory inside the partial manifests of CRD widgets.widgets.example.openshift.io, which hold only generated files: remove it"}}),
		o("merged-manifest-is-directory", "A directory where stage 3 writes a merged manifest.",
			tmpl{del: []string{defaultCRD}, mkdir: []string{defaultCRD}, exit: 4, want: []string{"error: " + defaultCRD + ": is a directory where a file is expected"}}),
		o("summary-is-directory", "A directory where stage 1 writes its summary file.",
			tmpl{del: []string{summary}, mkdir: []string{summary}, exit: 4, want: []string{"error: " + summary + ": is a directory where a file is expected"}}),
		o("merged-doc-go-is-directory", "A directory where stage 3 writes doc.go.",
			tmpl{del: []string{merged + "doc.go"}, mkdir: []string{merged + "doc.go"}, exit: 4, want: []string{"error: " + merged + "doc.go: is a directory where a file is expected"}}),
		o("merged-dir-is-file", "zz_generated.crd-manifests is a file.",
			tmpl{del: []string{merged}, files: map[string]string{strings.TrimSuffix(merged, "/"): "not a directory\n"},
				want: []string{strings.TrimSuffix(merged, "/") + ": is a file; expected the output directory"}}),
		o("partial-root-is-file", "zz_generated.featuregated-crd-manifests is a file.",
			tmpl{del: []string{v1 + "zz_generated.featuregated-crd-manifests"}, files: map[string]string{v1 + "zz_generated.featuregated-crd-manifests": "not a directory\n"},
				want: []string{v1 + "zz_generated.featuregated-crd-manifests/widgets.widgets.example.openshift.io: cannot list the CRD directory: open " +
					v1 + "zz_generated.featuregated-crd-manifests/widgets.widgets.example.openshift.io: not a directory"}}),
		o("partial-invalid-yaml-merge", "An existing partial manifest that is not YAML, read by stage 3.",
			tmpl{args: "crd-manifest-merge --base-dir $TREE", files: map[string]string{partialDir + "WidgetLimits.yaml": "spec: [\n"},
				want: []string{partialDir + "WidgetLimits.yaml:1: invalid YAML: error converting YAML to JSON: yaml: line 1: did not find expected node content"}}),
		o("partial-invalid-yaml", "An existing partial manifest that is not YAML, all stages.",
			tmpl{files: map[string]string{partialDir + "WidgetLimits.yaml": "spec: [\n"},
				want: []string{partialDir + "WidgetLimits.yaml: the existing partial manifest is not valid YAML (fix or delete it): error converting YAML to JSON: yaml: line 1: did not find expected node content"}}),
		o("partial-wrong-kind-merge", "A partial manifest of another kind, read by stage 3.",
			tmpl{args: "crd-manifest-merge --base-dir $TREE",
				files: map[string]string{partialDir + "WidgetLimits.yaml": strings.Replace(partial, "kind: CustomResourceDefinition", "kind: CustomResource", 1)},
				want:  []string{partialDir + `WidgetLimits.yaml: kind: is "CustomResource", expected "CustomResourceDefinition"`}}),
		o("partial-empty-merge", "An empty partial manifest, read by stage 3.",
			tmpl{args: "crd-manifest-merge --base-dir $TREE", files: map[string]string{partialDir + "WidgetLimits.yaml": ""},
				want: []string{partialDir + "WidgetLimits.yaml: empty manifest"}}),
		o("partial-schema-not-object-merge", "A partial manifest whose schema is a string, read by stage 3.",
			tmpl{args: "crd-manifest-merge --base-dir $TREE",
				files: map[string]string{partialDir + "WidgetLimits.yaml": strings.Replace(partial, "      openAPIV3Schema:\n", "      openAPIV3Schema: broken\n      ignored:\n", 1)},
				want:  []string{partialDir + `WidgetLimits.yaml: does not fit the CustomResourceDefinition schema: .spec.versions[name="v1"].schema.ignored: field not declared in schema; .spec.versions[name="v1"].schema.openAPIV3Schema: expected map, got `}}),
		o("partial-invalid-yaml-schemapatch-verify", "A partial manifest that is not YAML, under standalone schemapatch --verify.",
			tmpl{args: "schemapatch --base-dir $TREE --verify", files: map[string]string{partialDir + "WidgetLimits.yaml": "spec: [\n"},
				want: []string{"error: " + partialDir + "WidgetLimits.yaml: is not a valid YAML object, but zz_generated.featuregated-crd-manifests holds generated partial manifests"}}),
		o("merged-invalid-yaml-verify", "A merged manifest that is not YAML, under --verify.",
			tmpl{args: "crd-manifests --base-dir $TREE --verify", files: map[string]string{defaultCRD: "spec: [\n"}, exit: 1,
				want: []string{defaultCRD + " is out of date"}}),
	}
}

// flagCases are wrong command lines.
func flagCases() []tmpl {
	f := func(name, desc, args string, exit int, want ...string) tmpl {
		return tmpl{name: "flags/" + name, desc: desc, args: args, exit: exit, want: want}
	}
	const usage = 2
	return []tmpl{
		f("unknown-flag", "A flag codegen does not have.", defaultArgs+" --no-such-flag", usage, "error: unknown flag: --no-such-flag"),
		f("unknown-shorthand", "A one-letter flag codegen does not have.", defaultArgs+" -x", usage, "error: unknown shorthand flag: 'x' in -x"),
		f("unknown-command", "A sub-command codegen does not have.", "crd-manifest --base-dir $TREE", usage, `unknown command "crd-manifest"`),
		f("extra-argument", "A positional argument.", defaultArgs+" widgets", usage, `unknown command "widgets"`),
		f("flag-without-value", "--base-dir without its value.", "crd-manifests --base-dir", usage, "error: flag needs an argument: --base-dir"),
		f("verbosity-not-a-number", "-v x.", defaultArgs+" -v x", usage, `invalid argument "x" for "-v`),
		f("strict-markers-not-bool", "--strict-markers=maybe.", defaultArgs+" --strict-markers=maybe", usage, `invalid argument "maybe" for "--strict" flag`),
		f("verify-not-bool", "--verify=yes.", defaultArgs+" --verify=yes", usage, `invalid argument "yes" for "--verify"`),
		f("required-feature-sets", "The legacy FeatureSet mode.", "schemapatch --base-dir $TREE --required-feature-sets TechPreviewNoUpgrade", usage,
			"error: --required-feature-sets selects the legacy FeatureSet mode, which gatedcrd does not implement (see docs/reference-rules.md#the-legacy-featureset-mode); gate fields with +openshift:enable:FeatureGate instead"),
		f("required-feature-sets-on-merge", "--required-feature-sets belongs to schemapatch only.", "crd-manifest-merge --base-dir $TREE --required-feature-sets Default", usage,
			"error: unknown flag: --required-feature-sets"),
		f("base-dir-missing", "--base-dir names nothing.", "crd-manifests --base-dir $TREE/nowhere", 3,
			"base directory $TREE/nowhere does not exist or is not a directory"),
		f("base-dir-is-file", "--base-dir names a file.", "crd-manifests --base-dir $TREE/widgets/v1/types.go", 3,
			"base directory $TREE/widgets/v1/types.go does not exist or is not a directory"),
		f("group-versions-unknown-version", "A version the group does not have.", defaultArgs+" --api-group-versions widgets.example.openshift.io/v2", 3,
			"--api-group-versions: widgets.example.openshift.io/v2 match(es) no API group-version (entries are <group>/<version>, comma-separated); known: widgets.example.openshift.io/v1"),
		f("group-versions-group-only", "A group without version.", defaultArgs+" --api-group-versions widgets.example.openshift.io", 3,
			"--api-group-versions: widgets.example.openshift.io match(es) no API group-version"),
		f("group-versions-space-separated", "A space-separated list (one argument).", defaultArgs+" '--api-group-versions=widgets.example.openshift.io/v1 widgets.example.openshift.io/v1alpha1'", 3,
			"--api-group-versions: widgets.example.openshift.io/v1 widgets.example.openshift.io/v1alpha1 match(es) no API group-version"),
		f("group-versions-one-unknown", "One known and one unknown entry.", defaultArgs+" --api-group-versions widgets.example.openshift.io/v1,gadgets.example.openshift.io/v1", 3,
			"--api-group-versions: gadgets.example.openshift.io/v1 match(es) no API group-version"),
		f("group-versions-version-only", "A version without group.", defaultArgs+" --api-group-versions v1", 3,
			"--api-group-versions: v1 match(es) no API group-version"),
		f("payload-path-base-dir", "The payload path names the base directory, which holds no FeatureGate manifest.", defaultArgs+" --manifest-merge:payload-manifest-path=$TREE", 3,
			"error: .: no FeatureGate manifest (.yaml, .yml or .json file)"),
		f("stats-is-directory", "--stats names a directory.", defaultArgs+" --stats $TREE/widgets", 4, "error: writing --stats: widgets: is a directory where a file is expected"),
		f("kube-version-unsupported", "--kube-version names a release with no validation program.", defaultArgs+" --kube-version 1.29", usage,
			`error: --kube-version: unsupported Kubernetes version "1.29": supported are`),
		f("kube-version-malformed", "--kube-version is not <major>.<minor>.", defaultArgs+" --kube-version 1.x", usage,
			`error: --kube-version: "1.x" is not a Kubernetes release; write <major>.<minor>, e.g. "1.32"`),
	}
}

// nonStrictCases run with --strict-markers=false: unknown gate names are
// warnings, and the stages' own checks report what remains.
func nonStrictCases() []tmpl {
	const args = defaultArgs + " --strict-markers=false"
	n := func(name, desc, placeholder, line string, want ...string) tmpl {
		t := marker("non-strict/"+name, desc, placeholder, line, want...)
		t.args = args
		return t
	}
	const enable = "+openshift:enable:FeatureGate"
	const maxItems = "+openshift:validation:FeatureGateAwareMaxItems"
	const xval = "+openshift:validation:FeatureGateAwareXValidation"
	ts := []tmpl{
		n("gate-name-plus", "'+' in a gate name.", "field-string", enable+"=Widget+Limits",
			at("field-string")+": "+enable+`=Widget+Limits: gate name "Widget+Limits" is not valid: use letters, digits, '_', '.' and '-', starting with a letter or digit`),
		n("gate-name-negated", "A negated gate.", "field-string", enable+"=-WidgetLimits",
			at("field-string")+": "+enable+`=-WidgetLimits: gate name "-WidgetLimits" is not valid`),
		n("gate-name-slash", "'/' in a gate name.", "field-slice", maxItems+":featureGate=Widget/Limits,maxItems=3",
			at("field-slice")+": "+maxItems+`:featureGate=Widget/Limits,maxItems=3: featureGate: gate name "Widget/Limits" is not valid`),
		n("enable-empty", "A gate marker without gate.", "field-string", enable+"=",
			"error: "+at("field-string")+": "+enable+"=: "+enable+" needs a value"),
		n("maxitems-not-a-number", "maxItems=x.", "field-slice", maxItems+":featureGate=WidgetLimits,maxItems=x",
			at("field-slice")+": "+maxItems+`:featureGate=WidgetLimits,maxItems=x: cannot parse +openshift:validation:FeatureGateAwareMaxItems: expected integer, got "x"`),
		n("gate-aware-unknown-argument", "Without strict markers an argument a FeatureGate-aware marker does not have is a warning\nand the marker applies without it: here that leaves it without a gate.", "spec-type", xval+`:featuregate=WidgetLimits,rule="self.size >= 0"`,
			"warning: "+at("spec-type")+": "+xval+`:featuregate=WidgetLimits,rule="self.size >= 0": unknown argument "featuregate" of `+xval,
			"error: "+at("spec-type")+": "+xval+`:featuregate=WidgetLimits,rule="self.size >= 0": names no gate`),
		n("quoted-gate", "Without strict markers a quoted gate is still an error.", "field-string", enable+`="WidgetLimits"`,
			at("field-string")+": "+enable+`="WidgetLimits": gate name "WidgetLimits" is quoted: write it without quotes`),
	}
	for i := range ts {
		ts[i].bug = knownBugs[ts[i].name]
	}
	return ts
}
