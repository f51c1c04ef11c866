package yamlfile

import (
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
