package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Two kinds of map key do not survive sigs.k8s.io/yaml.Marshal, and so
// are errors here, whichever way a manifest is written:
//
//   - "<<", which YAML 1.1 readers (go.yaml.in/yaml/v2 among them) take
//     for a merge of another map into the one holding it. The library's
//     emitter writes the string key "<<" without quotes, so its output
//     reads back as a merge: silently other content when the value is a
//     map, an error otherwise.
//   - a key whose JSON form is longer than 1024 characters. The library
//     encodes the map as JSON and reads that back as YAML, whose scanner
//     gives up on a key that long ("did not find expected ',' or '}'").
const (
	mergeKey = "<<"
	// maxJSONKey is the YAML scanner's limit on a simple key, in
	// characters of the key's JSON form (its quotes included).
	maxJSONKey = 1024
	// shortKeyBytes is the longest key that is never over maxJSONKey: JSON
	// writes a byte as at most six characters (\u003c).
	shortKeyBytes = (maxJSONKey - 2) / 6
)

// writableKey reports whether key is neither of the two.
func writableKey(key string) bool {
	return key != mergeKey && (len(key) <= shortKeyBytes || !overlongKey(key))
}

func overlongKey(key string) bool {
	j, err := json.Marshal(key) // a string always encodes
	return err == nil && utf8.RuneCount(j) > maxJSONKey
}

// unwritableKey returns an error for the first key in v (below path, in
// byte order) that is not writable, saying where it is and why.
func unwritableKey(v any, path string) error {
	switch x := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		for _, k := range keys {
			if writableKey(k) {
				continue
			}
			at := "the top level"
			if path != "" {
				at = path[1:]
			}
			if k == mergeKey {
				return fmt.Errorf("key %q at %s: the YAML library writes it unquoted, which YAML readers take for a merge key, so the manifest would not read back as written", k, at)
			}
			j, _ := json.Marshal(k)
			return fmt.Errorf("key %.40q... at %s: %d characters long as JSON, over the %d the YAML library can read back as a key", k, at, utf8.RuneCount(j), maxJSONKey)
		}
		for _, k := range keys {
			if err := unwritableKey(x[k], path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := unwritableKey(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	}
	return nil
}
