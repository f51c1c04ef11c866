package yamlfile

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// The readers of single values below report a value of the wrong kind as
// a problem about key (a dotted key) at the value's line, saying what the
// value must be and what it is, and return false. They see no nulls from
// Fields and Each, which treat a null value as a key left out; a null
// entry of a list is a value of the wrong kind.

// String reads a scalar as written: a number or boolean is kept as its
// text, so that kubeVersion: 1.30 stays "1.30" rather than becoming 1.3.
func (r *Reader) String(key string, v *yaml.Node) (string, bool) {
	v = resolve(v)
	if v.Kind != yaml.ScalarNode || IsNull(v) {
		r.Addf(v.Line, key, "must be a string, not %s", Describe(v))
		return "", false
	}
	return v.Value, true
}

// NonEmpty reads a string that must hold more than white space.
func (r *Reader) NonEmpty(key string, v *yaml.Node) (string, bool) {
	v = resolve(v)
	if v.Kind != yaml.ScalarNode || IsNull(v) || strings.TrimSpace(v.Value) == "" {
		r.Addf(v.Line, key, "must be a non-empty string, not %s", Describe(v))
		return "", false
	}
	return v.Value, true
}

// Bool reads true or false. The YAML library decides what counts as a
// boolean (it also takes YAML 1.1's yes and no for a bool).
func (r *Reader) Bool(key string, v *yaml.Node) (bool, bool) {
	v = resolve(v)
	var b bool
	if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
		r.Addf(v.Line, key, "must be true or false, not %s", Describe(v))
		return false, false
	}
	return b, true
}

// Int reads a whole number. Only an integer scalar is one: the YAML
// library would cut 1.5 down to 1.
func (r *Reader) Int(key string, v *yaml.Node) (int, bool) {
	v = resolve(v)
	var n int
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Decode(&n) != nil {
		r.Addf(v.Line, key, "must be a whole number, not %s", Describe(v))
		return 0, false
	}
	return n, true
}

// List returns the entries of a list, aliases resolved; of names them in
// the message about a value that is no list ("must be a list of <of>").
func (r *Reader) List(key string, v *yaml.Node, of string) ([]*yaml.Node, bool) {
	v = resolve(v)
	if v.Kind != yaml.SequenceNode {
		r.Addf(v.Line, key, "must be a list of %s, not %s", of, Describe(v))
		return nil, false
	}
	items := make([]*yaml.Node, len(v.Content))
	for i, item := range v.Content {
		items[i] = resolve(item)
	}
	return items, true
}

// Strings reads a list of strings (String for each entry): the entries
// that are strings, in file order, and whether every entry is one. An
// empty list is an empty slice, not nil, so that callers can tell it from
// a list left out.
func (r *Reader) Strings(key string, v *yaml.Node, of string) ([]string, bool) {
	items, ok := r.List(key, v, of)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(items))
	for _, item := range items {
		s, isString := r.String(key, item)
		if !isString {
			ok = false
			continue
		}
		out = append(out, s)
	}
	return out, ok
}
