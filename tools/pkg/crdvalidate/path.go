package crdvalidate

import (
	"strconv"
	"strings"
)

// schemaPath is a server field path below a version's openAPIV3Schema,
// split into the steps through the schema and what it ends on.
type schemaPath struct {
	// version is the index in spec.versions, or -1 when the path is not
	// inside a schema.
	version int
	// shared is set for spec.validation: the conversion to the internal
	// version hoists a schema every version shares there, and version is
	// then 0.
	shared bool
	// steps go from the root schema down: a property name, "[*]" for items,
	// "{*}" for additionalProperties.
	steps []string
	// rule is the index in x-kubernetes-validations, or -1.
	rule int
	// keyword is the schema keyword the path ends on below the node
	// ("default", "maxItems", "x-kubernetes-validations[0].rule", ...), or "".
	keyword string
}

const (
	itemsStep      = "[*]"
	additionalStep = "{*}"
)

// parseSchemaPath splits a field path such as
// spec.versions[0].schema.openAPIV3Schema.properties[spec].items.x-kubernetes-validations[0].rule.
func parseSchemaPath(p string) schemaPath {
	sp := schemaPath{version: -1, rule: -1}
	rest, ok := strings.CutPrefix(p, "spec.validation.openAPIV3Schema")
	if ok {
		sp.version, sp.shared = 0, true
	} else {
		rest, ok = strings.CutPrefix(p, "spec.versions[")
		if !ok {
			return sp
		}
		var idx string
		idx, rest, ok = strings.Cut(rest, "]")
		n, err := strconv.Atoi(idx)
		if !ok || err != nil {
			return sp
		}
		rest, ok = strings.CutPrefix(rest, ".schema.openAPIV3Schema")
		if !ok {
			return sp
		}
		sp.version = n
	}
	for rest != "" {
		rest = strings.TrimPrefix(rest, ".")
		switch {
		case strings.HasPrefix(rest, "properties["):
			name, after, _ := strings.Cut(strings.TrimPrefix(rest, "properties["), "]")
			sp.steps = append(sp.steps, name)
			rest = after
		case rest == "items" || strings.HasPrefix(rest, "items."):
			sp.steps = append(sp.steps, itemsStep)
			rest = strings.TrimPrefix(rest, "items")
		case rest == "additionalProperties" || strings.HasPrefix(rest, "additionalProperties."):
			sp.steps = append(sp.steps, additionalStep)
			rest = strings.TrimPrefix(rest, "additionalProperties")
		default:
			sp.keyword = rest
			if r, ok := strings.CutPrefix(rest, "x-kubernetes-validations["); ok {
				if i, _, ok := strings.Cut(r, "]"); ok {
					if n, err := strconv.Atoi(i); err == nil {
						sp.rule = n
					}
				}
			}
			rest = ""
		}
	}
	return sp
}

// dataPath renders the steps as the path of the value in a custom
// resource, e.g. .spec.tags[*].
func (sp schemaPath) dataPath() string {
	if len(sp.steps) == 0 {
		return "."
	}
	var b strings.Builder
	for _, s := range sp.steps {
		switch s {
		case itemsStep, additionalStep:
			b.WriteString(s)
		default:
			b.WriteString("." + s)
		}
	}
	return b.String()
}

// lookup follows the steps in a manifest's version schema (a generic map).
func (sp schemaPath) lookup(crd map[string]any) map[string]any {
	spec, _ := crd["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	if sp.version < 0 || sp.version >= len(versions) {
		return nil
	}
	v, _ := versions[sp.version].(map[string]any)
	schema, _ := v["schema"].(map[string]any)
	node, _ := schema["openAPIV3Schema"].(map[string]any)
	for _, s := range sp.steps {
		if node == nil {
			return nil
		}
		switch s {
		case itemsStep:
			node, _ = node["items"].(map[string]any)
		case additionalStep:
			node, _ = node["additionalProperties"].(map[string]any)
		default:
			props, _ := node["properties"].(map[string]any)
			node, _ = props[s].(map[string]any)
		}
	}
	return node
}

// ruleText returns the rule of the path's x-kubernetes-validations entry.
func (sp schemaPath) ruleText(crd map[string]any) string {
	node := sp.lookup(crd)
	rules, _ := node["x-kubernetes-validations"].([]any)
	if sp.rule < 0 || sp.rule >= len(rules) {
		return ""
	}
	r, _ := rules[sp.rule].(map[string]any)
	s, _ := r["rule"].(string)
	return s
}
