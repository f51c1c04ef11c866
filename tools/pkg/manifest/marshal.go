package manifest

import (
	"bytes"
	"encoding/json"
	"math"
	"sync"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// marshalGeneric serialises a generic map exactly as sigs.k8s.io/yaml.Marshal
// does, without its detour: that function encodes the map as JSON, parses
// the JSON again with go.yaml.in/yaml/v2 (to get integers back from JSON's
// numbers) and emits what it parsed. On manifests with large schemas the
// parse is most of the cost of writing a manifest. Parsing JSON changes
// only three things in a generic map, so they are applied directly and the
// map goes to the same emitter:
//
//   - numbers become what the YAML resolver makes of their JSON text
//     (integers come back as int, whether they were float64 or int64);
//   - typed nil maps and slices become null (JSON null);
//   - nothing else: map keys and strings come back unchanged, since a JSON
//     string is a double-quoted YAML scalar.
//
// Whatever the detour could treat differently (strings that are not valid
// UTF-8, which JSON encoding repairs, or that hold characters the YAML
// reader rejects; values other than the JSON types; very deep nesting)
// takes sigs.k8s.io/yaml.Marshal itself, as does a nil map.
//
// Keys the library cannot write so that they read back (see keys.go) are
// errors of our own, which say where the key is.
//
// emitter writes what the short cut leaves of m: emit, or a Subtrees'
// emitter, which gives the same bytes.
func marshalGeneric(m map[string]any, emitter func(any) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return yaml.Marshal(m)
	}
	v, _, ok := jsonLike(m, 0)
	if !ok {
		if err := unwritableKey(m, ""); err != nil {
			return nil, err
		}
		return detour(m)
	}
	return emitter(v)
}

// detour returns what sigs.k8s.io/yaml.Marshal returns for m, its errors
// included, but with every map's keys in keyOrder: it takes the same
// steps, reading the JSON into yaml.MapSlices (in the JSON's order) to
// order their items before they are emitted.
func detour(m map[string]any) ([]byte, error) {
	j, err := json.Marshal(m)
	if err != nil {
		return yaml.Marshal(m)
	}
	var doc yamlv2.MapSlice
	if err := yamlv2.Unmarshal(j, &doc); err != nil {
		return yaml.Marshal(m)
	}
	return emit(orderItems(doc))
}

// orderItems returns v with the items of every yaml.MapSlice in it in
// keyOrder (their keys are strings, read from JSON).
func orderItems(v any) any {
	switch x := v.(type) {
	case yamlv2.MapSlice:
		m := make(map[string]any, len(x))
		for _, it := range x {
			k, _ := it.Key.(string)
			m[k] = orderItems(it.Value) // a later duplicate wins, as in a map
		}
		return orderedMap(m)
	case []any:
		for i, e := range x {
			x[i] = orderItems(e)
		}
	}
	return v
}

// outputs holds the buffers emit renders into, for the next call to reuse.
var outputs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// emit returns what go.yaml.in/yaml/v2.Marshal returns for v. Marshal
// grows its output one small chunk at a time, so a large manifest costs
// several times its size in discarded copies, and the result keeps up to
// a quarter of its length spare. The library's Encoder (the same
// emitter, documents and stream end, so the same bytes) writes into a
// reused buffer instead, and the result is one copy of exactly its size.
func emit(v any) ([]byte, error) {
	buf := outputs.Get().(*bytes.Buffer)
	defer outputs.Put(buf)
	buf.Reset()
	enc := yamlv2.NewEncoder(buf)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	return out, nil
}

// maxDepth keeps nesting well below the YAML parser's limit of 10000, at
// which the detour fails; deeper values take the detour.
const maxDepth = 1000

// jsonLike returns v as go.yaml.in/yaml/v2 parses it back from its JSON
// encoding, whether that differs from v, and false when that cannot be
// told without the detour. v is never modified: a map or slice holding a
// value that changes is copied, the others are returned as they are.
func jsonLike(v any, depth int) (out any, changed, ok bool) {
	if depth > maxDepth {
		return nil, false, false
	}
	switch x := v.(type) {
	case nil, bool:
		return v, false, true
	case string:
		return v, false, yamlSafe(x)
	case float64:
		n, ok := yamlNumber(x)
		return n, true, ok
	case int:
		return v, false, true
	case int64:
		// The merge's objects hold integers as int64 (structured-merge-diff).
		if int64(int(x)) == x {
			return int(x), true, true
		}
		return v, false, true
	case map[string]any:
		if x == nil {
			return nil, true, true
		}
		var cp map[string]any
		withDigits := 0
		for k, e := range x {
			if !yamlSafe(k) || !writableKey(k) {
				return nil, false, false
			}
			if hasDigit(k) {
				withDigits++
			}
			c, ch, ok := jsonLike(e, depth+1)
			if !ok {
				return nil, false, false
			}
			if ch {
				if cp == nil {
					cp = make(map[string]any, len(x))
					for k2, e2 := range x {
						cp[k2] = e2
					}
				}
				cp[k] = c
			}
		}
		if withDigits >= 3 {
			// The emitter's own order of these keys may depend on the
			// run (see keyorder.go).
			if cp == nil {
				cp = x
			}
			return orderedMap(cp), true, true
		}
		if cp == nil {
			return x, false, true
		}
		return cp, true, true
	case []any:
		if x == nil {
			return nil, true, true
		}
		var cp []any
		for i, e := range x {
			c, ch, ok := jsonLike(e, depth+1)
			if !ok {
				return nil, false, false
			}
			if ch {
				if cp == nil {
					cp = append([]any(nil), x...)
				}
				cp[i] = c
			}
		}
		if cp == nil {
			return x, false, true
		}
		return cp, true, true
	}
	return nil, false, false
}

// yamlNumber returns what the YAML resolver makes of the JSON encoding of f.
func yamlNumber(f float64) (any, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false // JSON cannot encode it: the detour reports the error
	}
	// JSON writes integral values below 1e21 as plain digits, which the
	// resolver reads as an int when they fit; 2^53 keeps this exact.
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int(f), true
	}
	text, err := json.Marshal(f)
	if err != nil {
		return nil, false
	}
	var out any
	if err := yamlv2.Unmarshal(text, &out); err != nil {
		return nil, false
	}
	return out, true
}

// yamlSafe reports whether s survives the JSON encoding and the YAML parse
// unchanged: valid UTF-8 without a character the YAML reader rejects
// unescaped (JSON escapes those below 0x20, and U+2028 and U+2029). NEL
// (U+0085), a line break to YAML that JSON leaves as it is, and the byte
// order mark are left to the detour.
func yamlSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7F || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return yamlSafeRunes(s[i:])
		}
	}
	return true
}

func yamlSafeRunes(s string) bool {
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return false // invalid UTF-8 (or a literal U+FFFD: detour either way)
		case r < 0x20: // escaped by JSON
		case r < 0x7F:
		case r >= 0xA0 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
	}
	return true
}
