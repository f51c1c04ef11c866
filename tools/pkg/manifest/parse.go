package manifest

import (
	"math"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// parseGeneric reads one YAML document into a generic map exactly as
// sigs.k8s.io/yaml.Unmarshal does, without its detour: that function
// parses the YAML with go.yaml.in/yaml/v2, encodes the result as JSON and
// decodes the JSON into the map. For a mapping with string keys the JSON
// round trip only turns every number into a float64 (the nearest one, as
// a conversion gives) and rebuilds the mappings as map[string]any; that
// is done directly here. Whatever else the round trip could change or
// reject (non-string keys, values other than YAML's plain types, strings
// that are not valid UTF-8, a document that is not a mapping, any error)
// takes sigs.k8s.io/yaml.Unmarshal itself, so results and error messages
// stay the library's. The one difference: a document whose aliases expand
// it far beyond its size is an error (ErrExpansion, see expansionBudget)
// where the library would take minutes.
func parseGeneric(data []byte) (map[string]any, error) {
	if m, done, err := parseDirect(data); done {
		return m, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// parseDirect is parseGeneric without the library: done is false when
// the library has to parse data.
func parseDirect(data []byte) (m map[string]any, done bool, err error) {
	var doc any
	if yamlv2.Unmarshal(data, &doc) != nil {
		return nil, false, nil
	}
	budget := expansionBudget(len(data))
	if top, ok := doc.(map[any]any); ok {
		c := converter{left: budget}
		switch m := c.fromYAML(top, 0).(type) {
		case map[string]any:
			return m, true, nil
		case failed:
			if m.blownUp {
				return nil, true, expansionError(len(data))
			}
		}
	}
	// The library writes the document out as JSON: not one this large.
	if expandedSize(doc, budget) > budget {
		return nil, true, expansionError(len(data))
	}
	return nil, false, nil
}

// converter converts a document as go.yaml.in/yaml/v2 parsed it while
// counting down the bytes it may expand to (see expansionBudget).
type converter struct {
	left int
}

// fromYAML returns v, as go.yaml.in/yaml/v2 parsed it, as its JSON round
// trip decodes it, or failed{} when the round trip is needed to tell or
// the document exceeds its budget.
func (c *converter) fromYAML(v any, depth int) any {
	if c.left -= ownSize(v); c.left < 0 {
		return failed{blownUp: true}
	}
	if depth > maxDepth {
		return failed{}
	}
	switch x := v.(type) {
	case nil, bool:
		return v
	case string:
		if !utf8.ValidString(x) {
			return failed{}
		}
		return v
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return failed{} // JSON cannot encode .nan and .inf: the library reports it
		}
		return x
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok || !utf8.ValidString(ks) {
				return failed{}
			}
			if c.left -= ownSize(ks); c.left < 0 {
				return failed{blownUp: true}
			}
			ce := c.fromYAML(e, depth+1)
			if _, bad := ce.(failed); bad {
				return ce
			}
			out[ks] = ce
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			ce := c.fromYAML(e, depth+1)
			if _, bad := ce.(failed); bad {
				return ce
			}
			out[i] = ce
		}
		return out
	}
	return failed{}
}

// failed marks a value fromYAML leaves to the detour, or a document too
// large to convert at all (blownUp).
type failed struct {
	blownUp bool
}
