package corpus

import "strings"

// The merged files of the base tree, and the variants they stand for.
const (
	crdName     = "widgets.widgets.example.openshift.io v1"
	fileCustom  = "0000_10_widgets_01_widgets-CustomNoUpgrade.crd.yaml"
	fileDefault = "0000_10_widgets_01_widgets-Default.crd.yaml"
	fileTech    = "0000_10_widgets_01_widgets-TechPreviewNoUpgrade.crd.yaml"
	everyWhere  = "; every ClusterProfile; every major version): "
	inAll       = "in " + fileCustom + ", " + fileDefault + ", " + fileTech + " (FeatureSet CustomNoUpgrade,Default,TechPreviewNoUpgrade" + everyWhere
	inGated     = "in " + fileCustom + ", " + fileTech + " (FeatureSet CustomNoUpgrade,TechPreviewNoUpgrade" + everyWhere
	inDefault   = "in " + fileDefault + " (FeatureSet Default" + everyWhere
	costHint    = " (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
	xval        = "+kubebuilder:validation:XValidation"
	gatedXval   = "+openshift:validation:FeatureGateAwareXValidation"
)

// crdValidationCases break the generated CRDs in ways only the API server's
// validation finds: each error is at the Go marker or field behind it and
// names the files and variants where the server would reject the CRD.
func crdValidationCases() []tmpl {
	type c struct {
		name, desc string
		inject     []string
		// pos is the marker (or declaration) line; where the CRD version,
		// schema path and keyword; in the files and variants; what starts
		// the server's message.
		pos, where, in, what string
	}
	rule := func(r string) string { return xval + ":rule=" + quote(r) }
	field := func(markers []string, decl string) []string {
		var out []string
		for _, m := range markers {
			out = append(out, "spec-fields: // "+m)
		}
		return append(out, "spec-fields: "+decl)
	}
	onSpec := func(name, desc, r, what string) c {
		return c{name, desc, []string{"spec-type: // " + rule(r)}, "{@spec-type}: " + rule(r), ".spec x-kubernetes-validations.rule", inAll, what}
	}
	part := []string{
		"decls: // Part is one part.",
		"decls: type Part struct {",
		"decls: 	Name string `json:\"name\"`",
		"decls: }",
	}
	strs := "Items []string `json:\"items,omitempty\"`"
	ints := "Counts []int32 `json:\"counts,omitempty\"`"
	quadratic := "self.all(x, self.all(y, x == y || x != y))"
	compile := "Invalid value: compilation failed: ERROR: <input>:"
	cases := []c{
		onSpec("syntax-error", "A CEL rule that does not parse.", "self.size >", compile+"1:12: Syntax error: mismatched input '<EOF>'"),
		onSpec("not-a-bool", "A rule whose result is not a bool.", "self.size", "Invalid value: cel expression must evaluate to a bool"),
		onSpec("unknown-function", "A function CEL does not have.", "self.name.frobnicate()", compile+"1:21: undeclared reference to 'frobnicate'"),
		onSpec("unknown-field", "A field the type does not have.", "self.nope == 1", compile+"1:5: undefined field 'nope'"),
		onSpec("unknown-variable", "A variable that is not self or oldSelf.", "other.size > 0", compile+"1:1: undeclared reference to 'other'"),
		onSpec("oldself-misspelt", "oldself instead of oldSelf.", "self.size >= oldself.size", compile+"1:14: undeclared reference to 'oldself'"),
		onSpec("wrong-argument-type", "A string function given an int.", "self.name.startsWith(1)", compile+"1:21: found no matching overload for 'startsWith' applied to 'string.(int)'"),
		onSpec("mixed-arithmetic", "An int plus a string.", "self.size + 'a' == 1", compile+"1:11: found no matching overload for '_+_' applied to '(int, string)'"),
		onSpec("has-of-self", "has() of a variable instead of a field.", "has(self)", compile+"1:5: invalid argument to has() macro"),
		{"bad-regex", "A constant regular expression that does not compile.", []string{"field-string: // " + rule("self.matches('[')")},
			"{@field-string}: " + rule("self.matches('[')"), ".spec.name x-kubernetes-validations.rule", inAll, compile + "1:14: invalid matches argument"},
		{"not-yet-available", "list.includes() arrived in Kubernetes 1.37; new expressions must also compile on 1.36 servers (the compatibility version), so 1.37 rejects it on create.",
			[]string{"field-slice: // " + rule("!self.includes('x')")},
			"{@field-slice}: " + rule("!self.includes('x')"), ".spec.tags x-kubernetes-validations.rule", inAll, compile + "1:15: undeclared reference to 'includes'"},
		{"message-expression-not-string", "A messageExpression that is not a string.",
			[]string{"spec-type: // " + xval + `:rule="self.size >= 0",messageExpression="self.size"`},
			"{@spec-type}: " + xval + `:rule="self.size >= 0",messageExpression="self.size"`, ".spec x-kubernetes-validations.messageExpression", inAll, "Invalid value: messageExpression must evaluate to a string"},
		{"message-expression-syntax", "A messageExpression that does not parse.",
			[]string{"spec-type: // " + xval + `:rule="self.size >= 0",messageExpression="'size ' +"`},
			"{@spec-type}: " + xval + `:rule="self.size >= 0",messageExpression="'size ' +"`, ".spec x-kubernetes-validations.messageExpression", inAll, "Invalid value: messageExpression compilation failed: ERROR: <input>:1:10: Syntax error"},
		{"message-expression-unknown-field", "A messageExpression reading a field that does not exist.",
			[]string{"spec-type: // " + xval + `:rule="self.size >= 0",messageExpression="'size ' + self.nope"`},
			"{@spec-type}: " + xval + `:rule="self.size >= 0",messageExpression="'size ' + self.nope"`, ".spec x-kubernetes-validations.messageExpression", inAll, "Invalid value: messageExpression compilation failed: ERROR: <input>:1:15: undefined field 'nope'"},
		{"optional-old-self-unused", "optionalOldSelf on a rule without oldSelf.",
			[]string{"spec-type: // " + xval + `:rule="self.size >= 0",optionalOldSelf=true`},
			"{@spec-type}: " + xval + `:rule="self.size >= 0",optionalOldSelf=true`, ".spec x-kubernetes-validations.optionalOldSelf", inAll, "Invalid value: true: may not be set if oldSelf is not used in rule"},
		{"field-path-invalid", "A fieldPath naming no field.",
			[]string{"spec-type: // " + xval + `:rule="self.size >= 0",fieldPath=".nope"`},
			"{@spec-type}: " + xval + `:rule="self.size >= 0",fieldPath=".nope"`, ".spec x-kubernetes-validations.fieldPath", inAll, `Invalid value: ".nope": must be a valid path`},
		{"over-rule-budget", "A quadratic rule on a list without maxItems.",
			field([]string{rule(quadratic)}, ints),
			"{@spec-fields}: " + rule(quadratic), ".spec.counts x-kubernetes-validations.rule", inAll, "Forbidden: estimated rule cost exceeds budget by factor of more than 100x" + costHint},
		{"over-rule-budget-items", "A rule on each item of an unbounded list of unbounded strings.",
			field([]string{"+kubebuilder:validation:items:XValidation:rule=" + quote("self.lowerAscii().upperAscii().lowerAscii() == self")}, strs),
			"{@spec-fields}: +kubebuilder:validation:items:XValidation:rule=" + quote("self.lowerAscii().upperAscii().lowerAscii() == self"), ".spec.items[*] x-kubernetes-validations.rule", inAll, "Forbidden: estimated rule cost exceeds budget by factor of more than 100x"},
		{"over-rule-budget-without-gated-maxitems", "The list is bounded only when WidgetLimits is on: the rule is over budget in Default alone.",
			field([]string{"+openshift:validation:FeatureGateAwareMaxItems:featureGate=WidgetLimits,maxItems=16", rule(quadratic)}, ints),
			"{@spec-fields#2}: " + rule(quadratic), ".spec.counts x-kubernetes-validations.rule", inDefault, "Forbidden: estimated rule cost exceeds budget by factor of more than 100x"},
		{"over-crd-budget", "Twelve rules, each within the per-rule budget, together over the budget of the whole CRD.",
			crdBudgetFields(),
			"@@widgets/v1/types.go|type Widget struct@@", ".", inAll, "Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.133040x"},
		{"old-self-in-atomic-list", "A transition rule inside the items of an atomic list, which cannot be correlated with the old object.",
			[]string{
				"spec-fields: // +kubebuilder:validation:MaxItems=4",
				"spec-fields: Parts []Part `json:\"parts,omitempty\"`",
				"decls: // Part is one part.",
				"decls: type Part struct {",
				"decls: 	// +kubebuilder:validation:XValidation:rule=\"self == oldSelf\",message=\"immutable\"",
				"decls: 	// +kubebuilder:validation:MaxLength=8",
				"decls: 	Name string `json:\"name\"`",
				"decls: }",
			},
			"{@decls#3}: " + xval + `:rule="self == oldSelf",message="immutable"`, ".spec.parts[*].name x-kubernetes-validations.rule", inAll,
			`Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[parts]`},
		{"old-self-in-set", "A transition rule on the items of a set list.",
			field([]string{"+listType=set", "+kubebuilder:validation:MaxItems=4", "+kubebuilder:validation:items:XValidation:rule=\"self == oldSelf\""}, ints),
			"{@spec-fields#3}: +kubebuilder:validation:items:XValidation:rule=\"self == oldSelf\"", ".spec.counts[*] x-kubernetes-validations.rule", inAll,
			`Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[counts]`},
		{"broken-without-gated-field", "A plain rule reading a field that only exists with WidgetLimits: broken in Default only.",
			[]string{"spec-type: // " + rule("!has(self.limit) || self.limit > 0")},
			"{@spec-type}: " + rule("!has(self.limit) || self.limit > 0"), ".spec x-kubernetes-validations.rule", inDefault, compile + "1:5: undefined field 'limit'"},
		{"gated-rule-broken", "A gated rule, broken, only in the variants with its gate.",
			[]string{"spec-type: // " + gatedXval + ":featureGate=WidgetLimits,rule=" + quote("self.colour == 'Blue'")},
			"{@spec-type}: " + gatedXval + ":featureGate=WidgetLimits,rule=" + quote("self.colour == 'Blue'"), ".spec x-kubernetes-validations.rule", inGated, compile + "1:5: undefined field 'colour'"},
		{"default-too-long", "A default that breaks the field's own maxLength.",
			field([]string{"+kubebuilder:validation:MaxLength=2", "+kubebuilder:default=abcd"}, "Mode string `json:\"mode,omitempty\"`"),
			"{@spec-fields#2}: +kubebuilder:default=abcd", ".spec.mode default", inAll, "Too long: may not be more than 2 bytes"},
		{"default-not-in-enum", "A default that the Default variant's enum does not allow (nor the gated one's).",
			[]string{"field-enum: // +kubebuilder:default=Purple"},
			"{@field-enum}: +kubebuilder:default=Purple", ".spec.color default", inDefault, `Unsupported value: "Purple": supported values: "Red", "Green"`},
		{"default-wrong-type", "A string default on an integer field.",
			[]string{"field-int: // +kubebuilder:default=\"big\""},
			"{@field-int}: +kubebuilder:default=\"big\"", ".spec.size default", inAll, `Invalid value: "string": in body must be of type integer: "string"`},
		{"default-below-minimum", "A default below the field's minimum.",
			[]string{"field-int: // +kubebuilder:default=-1"},
			"{@field-int}: +kubebuilder:default=-1", ".spec.size default", inAll, "Invalid value: -1: in body should be greater than or equal to 0"},
		{"default-fails-rule", "A default that its own CEL rule rejects.",
			field([]string{"+kubebuilder:default=3", rule("self % 2 == 0")}, "Even int32 `json:\"even,omitempty\"`"),
			"{@spec-fields}: +kubebuilder:default=3", ".spec.even default", inAll, "Invalid value: 3: failed rule: self % 2 == 0"},
		{"default-too-short", "A default shorter than the field's minLength.",
			[]string{"field-string: // +kubebuilder:default=\"\""},
			"{@field-string}: +kubebuilder:default=\"\"", ".spec.name default", inAll, `Invalid value: "": in body should be at least 1 chars long`},
		{"list-map-of-strings", "listType=map on a list of strings.",
			field([]string{"+listType=map"}, strs),
			"{@spec-fields}: +listType=map", ".spec.items x-kubernetes-list-map-keys", inAll, "Required value: must not be empty if x-kubernetes-list-type is map"},
		{"list-map-key-missing", "A listMapKey naming no property of the items.",
			append([]string{"spec-fields: // +listType=map", "spec-fields: // +listMapKey=id", "spec-fields: Parts []Part `json:\"parts,omitempty\"`"}, part...),
			"{@spec-fields#2}: +listMapKey=id", ".spec.parts x-kubernetes-list-map-keys", inAll, "Invalid value: entries must all be names of item properties"},
		{"list-map-key-optional", "A list-map key that is neither required nor defaulted.",
			[]string{
				"spec-fields: // +listType=map",
				"spec-fields: // +listMapKey=name",
				"spec-fields: Parts []Part `json:\"parts,omitempty\"`",
				"decls: // Part is one part.",
				"decls: type Part struct {",
				"decls: 	// +optional",
				"decls: 	Name string `json:\"name,omitempty\"`",
				"decls: }",
			},
			"{@decls#4}", ".spec.parts[*].name default", inAll, "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"},
		{"set-of-objects", "listType=set on a list of structs.",
			append([]string{"spec-fields: // +listType=set", "spec-fields: Parts []Part `json:\"parts,omitempty\"`"}, part...),
			"{@spec-fields}: +listType=set", ".spec.parts[*] x-kubernetes-map-type", inAll, "Invalid value: must be atomic as item of a list with x-kubernetes-list-type=set"},
		{"pattern-invalid", "A pattern that is not a regular expression.",
			[]string{"field-string: // +kubebuilder:validation:Pattern=`^(a$`"},
			"{@field-string}: +kubebuilder:validation:Pattern=`^(a$`", ".spec.name pattern", inAll, "Invalid value: \"^(a$\": must be a valid regular expression, but isn't: error parsing regexp: missing closing )"},
	}
	var out []tmpl
	for _, x := range cases {
		out = append(out, tmpl{name: "crd-validation/" + x.name, desc: x.desc, inject: x.inject,
			want: []string{x.pos + ": " + crdName + " " + x.where + ": " + x.in, x.in + x.what}})
	}
	curly := rule("self.size != ”")
	return append(out, tmpl{name: "crd-validation/typographic-quote",
		desc:   "gofmt turns '' in a doc comment into a typographic quote; the rule then fails to compile, and the error says why.",
		inject: []string{"spec-type: // " + curly},
		want: []string{"{@spec-type}: " + curly + ": " + crdName + " .spec x-kubernetes-validations.rule: ",
			`the rule holds a typographic quote (“ or ”): gofmt turns '' in a doc comment into ”, so write the empty string as "" (e.g. size(self) == 0 instead of self == '')`}})
}

// quote writes a marker string argument.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// crdBudgetFields are twelve bounded lists of bounded strings, each with a
// rule costing a little under the per-rule budget.
func crdBudgetFields() []string {
	var out []string
	for _, n := range []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12"} {
		out = append(out,
			"spec-fields: // +kubebuilder:validation:XValidation:rule=\"self.all(x, self.all(y, x == y || x != y))\"",
			"spec-fields: // +kubebuilder:validation:MaxItems=400",
			"spec-fields: // +kubebuilder:validation:items:MaxLength=64",
			"spec-fields: "+strings.ToUpper(n[:1])+n[1:]+" []string `json:\""+n+",omitempty\"`")
	}
	return out
}
