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
// stay the library's.
func parseGeneric(data []byte) (map[string]any, error) {
	var doc any
	if yamlv2.Unmarshal(data, &doc) == nil {
		if top, ok := doc.(map[any]any); ok {
			if m, ok := fromYAML(top, 0).(map[string]any); ok {
				return m, nil
			}
		}
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// fromYAML returns v, as go.yaml.in/yaml/v2 parsed it, as its JSON round
// trip decodes it, or failed{} when the round trip is needed to tell.
func fromYAML(v any, depth int) any {
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
			c := fromYAML(e, depth+1)
			if _, bad := c.(failed); bad {
				return c
			}
			out[ks] = c
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c := fromYAML(e, depth+1)
			if _, bad := c.(failed); bad {
				return c
			}
			out[i] = c
		}
		return out
	}
	return failed{}
}

// failed marks a value fromYAML leaves to the detour.
type failed struct{}
