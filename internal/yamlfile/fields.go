package yamlfile

import (
	"fmt"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Reader reads the node tree of one file and collects its problems. The
// zero policies report unknown and repeated keys as problems; a reader
// whose file format tolerates them elsewhere (codegen's .codegen.yaml,
// whose reference generator ignores unknown keys; lenient API test suites)
// sets its own.
type Reader struct {
	Problems
	// Unknown, when set, reports a field of a mapping whose key is not
	// among known (sorted) instead of the problem UnknownKey words; it
	// gets the value too, to say what ignoring it means. section is the
	// dotted key of the mapping, "" for the top level.
	Unknown func(section string, f Field, known []string)
	// Repeated, when set, reports a key given a second time instead of
	// the problem "is given twice"; it returns whether the repetition
	// replaces the first value (which one wins is up to the reader, not
	// the YAML library).
	Repeated func(section string, key *yaml.Node, first Field) (replace bool)
}

// NewReader returns a Reader of file with the default policies.
func NewReader(file string) *Reader {
	return &Reader{Problems: Problems{File: file}}
}

// Field is a key of a mapping and its value, aliases resolved.
type Field struct {
	Key, Value *yaml.Node
}

// Dotted is the name of key in messages: section.key, or key at the top
// level.
func Dotted(section, key string) string {
	if section == "" {
		return key
	}
	return section + "." + key
}

// UnknownKey is the message about a key that a mapping does not know,
// listing the keys it does.
func UnknownKey(section string, known []string) string {
	if section == "" {
		return "unknown key; known keys are " + strings.Join(known, ", ")
	}
	return fmt.Sprintf("unknown key; %s accepts %s", section, strings.Join(known, ", "))
}

// Fields reads m, the mapping of section (its dotted key, "" for the top
// level), whose keys are known, and returns its fields by key. A key with
// a null value is the same as a key left out and is not returned (it still
// counts as given when repeated). It returns nil, after a problem, when m
// is not a mapping.
func (r *Reader) Fields(section string, m *yaml.Node, known ...string) map[string]Field {
	out := map[string]Field{}
	if !r.walk(section, m, known, func(f Field) {
		if IsNull(f.Value) {
			delete(out, f.Key.Value) // a repetition that replaces a value with null
			return
		}
		out[f.Key.Value] = f
	}) {
		return nil
	}
	return out
}

// Each reads m as Fields does, calling the function of each key of fields
// in file order; the keys of fields are the known ones. It reports whether
// m is a mapping.
func (r *Reader) Each(section string, m *yaml.Node, fields map[string]func(Field)) bool {
	known := make([]string, 0, len(fields))
	for k := range fields {
		known = append(known, k)
	}
	return r.walk(section, m, known, func(f Field) {
		if !IsNull(f.Value) {
			fields[f.Key.Value](f)
		}
	})
}

// walk does the work of Fields and Each; fn sees null values too.
func (r *Reader) walk(section string, m *yaml.Node, known []string, fn func(Field)) bool {
	known = slices.Sorted(slices.Values(known))
	m = resolve(m)
	if m.Kind != yaml.MappingNode {
		if section == "" {
			r.Addf(m.Line, "", "must be a mapping of keys (%s) to values, not %s", strings.Join(known, ", "), Describe(m))
		} else {
			r.Addf(m.Line, section, "must be a mapping with keys %s, not %s", strings.Join(known, ", "), Describe(m))
		}
		return false
	}
	first := map[string]Field{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		f := Field{Key: resolve(m.Content[i]), Value: resolve(m.Content[i+1])}
		if f.Key.Kind != yaml.ScalarNode {
			r.Addf(f.Key.Line, section, "a key must be a string, not %s", Describe(f.Key))
			continue
		}
		name := f.Key.Value
		if !slices.Contains(known, name) {
			if r.Unknown != nil {
				r.Unknown(section, f, known)
			} else {
				r.Addf(f.Key.Line, Dotted(section, name), "%s", UnknownKey(section, known))
			}
			continue
		}
		if prev, dup := first[name]; dup {
			if r.Repeated == nil {
				r.Addf(f.Key.Line, Dotted(section, name), "is given twice (first on line %d)", prev.Key.Line)
				continue
			}
			if !r.Repeated(section, f.Key, prev) {
				continue
			}
		}
		first[name] = f
		fn(f)
	}
	return true
}
