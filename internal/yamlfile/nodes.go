package yamlfile

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// EachKey calls fn for every key of mapping m and its value, in file
// order. A key given twice is a problem (and fn is not called for the
// repetition): which value would win is up to the YAML library. section is
// the dotted key of m ("" for the top level), which prefixes the key in the
// problem.
func (ps *Problems) EachKey(section string, m *yaml.Node, fn func(k, v *yaml.Node)) {
	first := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if line, dup := first[k.Value]; dup {
			name := k.Value
			if section != "" {
				name = section + "." + k.Value
			}
			ps.Addf(k.Line, name, "is given twice (first on line %d)", line)
			continue
		}
		first[k.Value] = k.Line
		fn(k, m.Content[i+1])
	}
}

// IsNull reports whether n is an explicit or empty null.
func IsNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// SyntaxError splits an error of the YAML library into the line it names
// (0 if none) and the rest of its message, without the "yaml: line N: "
// prefix.
func SyntaxError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var n int
	if _, scanErr := fmt.Sscanf(msg, "line %d: ", &n); scanErr == nil {
		_, rest, _ := strings.Cut(msg, ": ")
		return n, rest
	}
	return 0, msg
}
