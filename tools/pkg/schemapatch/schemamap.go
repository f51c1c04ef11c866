package schemapatch

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// schemaToMap converts a schema to the generic form manifests are
// serialised from: the map its JSON encoding decodes to, as
// manifest.ToMap gives it. Encoding and decoding ~100 KB of JSON per
// schema was the costliest part of finishing a schema, so the map is
// built from the fields directly (schemaMap), with the JSON round trip
// left for what it alone can tell (see schemaMap). Properties of
// apiextensions v1 that schemaMap does not know fail
// TestSchemaMapKnowsEveryField.
func schemaToMap(schema *apiextensionsv1.JSONSchemaProps) (map[string]any, error) {
	if m, ok := schemaMap(schema, 0); ok {
		if checkSchemaMap != nil {
			checkSchemaMap(schema, m)
		}
		return m, nil
	}
	return manifest.ToMap(schema)
}

// checkSchemaMap, when set (by the package's tests), is given every
// schema converted without the round trip, and the map built.
var checkSchemaMap func(*apiextensionsv1.JSONSchemaProps, map[string]any)

// maxSchemaDepth keeps the walk far below the JSON decoder's nesting
// limit (10000), past which the round trip fails; a deeper schema, or a
// cyclic one, takes the round trip for its error.
const maxSchemaDepth = 1000

// schemaMap returns what the JSON round trip of s decodes to, following
// the json tags and marshallers of apiextensions v1 (every field is
// omitempty but the rule of a validation rule; JSON values hold JSON
// text, "null" when empty). ok is false when only the round trip can tell
// the result: a string that is not valid UTF-8 (which the encoding
// repairs), a number JSON cannot hold, a JSON value that does not parse,
// nesting too deep. Strings are shared with s, which is never modified.
func schemaMap(s *apiextensionsv1.JSONSchemaProps, depth int) (m map[string]any, ok bool) {
	if depth > maxSchemaDepth {
		return nil, false
	}
	b := mapBuilder{m: map[string]any{}, ok: true, depth: depth}
	b.validation(s)
	b.subschemas(s)
	b.extensions(s)
	return b.m, b.ok
}

// validation records the fields of JSON Schema's own that hold no schema.
func (b *mapBuilder) validation(s *apiextensionsv1.JSONSchemaProps) {
	b.str("id", s.ID)
	b.str("$schema", string(s.Schema))
	if s.Ref != nil {
		b.put("$ref")(text(*s.Ref))
	}
	b.str("description", s.Description)
	b.str("type", s.Type)
	b.str("format", s.Format)
	b.str("title", s.Title)
	if s.Default != nil {
		b.put("default")(jsonValue(*s.Default))
	}
	b.float("maximum", s.Maximum)
	b.flag("exclusiveMaximum", s.ExclusiveMaximum)
	b.float("minimum", s.Minimum)
	b.flag("exclusiveMinimum", s.ExclusiveMinimum)
	b.integer("maxLength", s.MaxLength)
	b.integer("minLength", s.MinLength)
	b.str("pattern", s.Pattern)
	b.integer("maxItems", s.MaxItems)
	b.integer("minItems", s.MinItems)
	b.flag("uniqueItems", s.UniqueItems)
	b.float("multipleOf", s.MultipleOf)
	if len(s.Enum) > 0 {
		b.put("enum")(jsonValues(s.Enum))
	}
	b.integer("maxProperties", s.MaxProperties)
	b.integer("minProperties", s.MinProperties)
	b.strs("required", s.Required)
	if d := s.ExternalDocs; d != nil {
		docs := mapBuilder{m: map[string]any{}, ok: true}
		docs.str("description", d.Description)
		docs.str("url", d.URL)
		b.put("externalDocs")(docs.m, docs.ok)
	}
	if s.Example != nil {
		b.put("example")(jsonValue(*s.Example))
	}
}

// subschemas records the fields that hold schemas.
func (b *mapBuilder) subschemas(s *apiextensionsv1.JSONSchemaProps) {
	if s.Items != nil {
		b.put("items")(b.items(s.Items))
	}
	b.schemas("allOf", s.AllOf)
	b.schemas("oneOf", s.OneOf)
	b.schemas("anyOf", s.AnyOf)
	if s.Not != nil {
		b.put("not")(schemaMap(s.Not, b.depth+1))
	}
	b.named("properties", s.Properties)
	b.orBool("additionalProperties", s.AdditionalProperties)
	b.named("patternProperties", s.PatternProperties)
	b.dependencies(s.Dependencies)
	b.orBool("additionalItems", s.AdditionalItems)
	b.named("definitions", s.Definitions)
}

// extensions records the fields OpenAPI and Kubernetes add.
func (b *mapBuilder) extensions(s *apiextensionsv1.JSONSchemaProps) {
	b.flag("nullable", s.Nullable)
	if s.XPreserveUnknownFields != nil {
		b.m["x-kubernetes-preserve-unknown-fields"] = *s.XPreserveUnknownFields
	}
	b.flag("x-kubernetes-embedded-resource", s.XEmbeddedResource)
	b.flag("x-kubernetes-int-or-string", s.XIntOrString)
	b.strs("x-kubernetes-list-map-keys", s.XListMapKeys)
	if s.XListType != nil {
		b.put("x-kubernetes-list-type")(text(*s.XListType))
	}
	if s.XMapType != nil {
		b.put("x-kubernetes-map-type")(text(*s.XMapType))
	}
	if len(s.XValidations) > 0 {
		b.put("x-kubernetes-validations")(validationRules(s.XValidations))
	}
}

// mapBuilder collects the entries of one JSON object; ok turns false for
// good at the first value only the round trip can tell.
type mapBuilder struct {
	m     map[string]any
	ok    bool
	depth int
}

// put returns the function that records the value at key, given with
// whether it could be told, as the functions building values return it.
func (b *mapBuilder) put(key string) func(v any, ok bool) {
	return func(v any, ok bool) {
		b.ok = b.ok && ok
		if b.ok {
			b.m[key] = v
		}
	}
}

func (b *mapBuilder) str(key, s string) {
	if s != "" {
		b.put(key)(text(s))
	}
}

func (b *mapBuilder) flag(key string, v bool) {
	if v {
		b.m[key] = true
	}
}

func (b *mapBuilder) float(key string, f *float64) {
	if f != nil {
		b.put(key)(*f, !math.IsNaN(*f) && !math.IsInf(*f, 0))
	}
}

// integer records what decoding JSON's decimal integer gives: the
// nearest float64, as the conversion rounds.
func (b *mapBuilder) integer(key string, n *int64) {
	if n != nil {
		b.m[key] = float64(*n)
	}
}

func (b *mapBuilder) strs(key string, list []string) {
	if len(list) > 0 {
		b.put(key)(stringList(list))
	}
}

func (b *mapBuilder) schemas(key string, list []apiextensionsv1.JSONSchemaProps) {
	if len(list) > 0 {
		b.put(key)(schemaList(list, b.depth+1))
	}
}

func (b *mapBuilder) named(key string, schemas map[string]apiextensionsv1.JSONSchemaProps) {
	if len(schemas) == 0 {
		return
	}
	out := make(map[string]any, len(schemas))
	for name, s := range schemas {
		v, ok := schemaMap(&s, b.depth+1)
		if !ok || !utf8.ValidString(name) {
			b.ok = false
			return
		}
		out[name] = v
	}
	b.m[key] = out
}

// items follows JSONSchemaPropsOrArray.MarshalJSON: the list when it has
// schemas, else the schema (null when there is none).
func (b *mapBuilder) items(items *apiextensionsv1.JSONSchemaPropsOrArray) (any, bool) {
	if len(items.JSONSchemas) > 0 {
		v, ok := schemaList(items.JSONSchemas, b.depth+1)
		return v, ok
	}
	if items.Schema == nil {
		return nil, true
	}
	v, ok := schemaMap(items.Schema, b.depth+1)
	return v, ok
}

// orBool follows JSONSchemaPropsOrBool.MarshalJSON: the schema when
// there is one, else Allows.
func (b *mapBuilder) orBool(key string, v *apiextensionsv1.JSONSchemaPropsOrBool) {
	switch {
	case v == nil:
	case v.Schema != nil:
		b.put(key)(schemaMap(v.Schema, b.depth+1))
	default:
		b.m[key] = v.Allows
	}
}

// dependencies follows JSONSchemaPropsOrStringArray.MarshalJSON: the
// property list when it is not empty, else the schema, else null.
func (b *mapBuilder) dependencies(deps apiextensionsv1.JSONSchemaDependencies) {
	if len(deps) == 0 {
		return
	}
	out := make(map[string]any, len(deps))
	for name, d := range deps {
		var v any
		ok := utf8.ValidString(name)
		switch {
		case len(d.Property) > 0:
			v, ok = stringList(d.Property)
		case d.Schema != nil:
			v, ok = schemaMap(d.Schema, b.depth+1)
		}
		if !ok {
			b.ok = false
			return
		}
		out[name] = v
	}
	b.m["dependencies"] = out
}

func schemaList(list []apiextensionsv1.JSONSchemaProps, depth int) (any, bool) {
	out := make([]any, len(list))
	for i := range list {
		v, ok := schemaMap(&list[i], depth)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

func validationRules(rules apiextensionsv1.ValidationRules) (any, bool) {
	out := make([]any, len(rules))
	for i, r := range rules {
		b := mapBuilder{m: map[string]any{}, ok: true}
		b.put("rule")(text(r.Rule)) // the one field without omitempty
		b.str("message", r.Message)
		b.str("messageExpression", r.MessageExpression)
		if r.Reason != nil {
			b.put("reason")(text(string(*r.Reason)))
		}
		b.str("fieldPath", r.FieldPath)
		if r.OptionalOldSelf != nil {
			b.m["optionalOldSelf"] = *r.OptionalOldSelf
		}
		if !b.ok {
			return nil, false
		}
		out[i] = b.m
	}
	return out, true
}

// text is a string as JSON gives it back: itself when it is valid UTF-8.
func text(s string) (any, bool) {
	return s, utf8.ValidString(s)
}

func stringList(list []string) (any, bool) {
	out := make([]any, len(list))
	for i, s := range list {
		if !utf8.ValidString(s) {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// jsonValue decodes the JSON text of v with encoding/json, as the round
// trip does once the encoder has copied it in; empty text is null.
func jsonValue(v apiextensionsv1.JSON) (any, bool) {
	if len(v.Raw) == 0 {
		return nil, true
	}
	var out any
	if err := json.Unmarshal(v.Raw, &out); err != nil {
		return nil, false
	}
	return out, true
}

func jsonValues(list []apiextensionsv1.JSON) (any, bool) {
	out := make([]any, len(list))
	for i, v := range list {
		var ok bool
		if out[i], ok = jsonValue(v); !ok {
			return nil, false
		}
	}
	return out, true
}
