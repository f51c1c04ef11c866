package repoconfig

import (
	"path"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/refera"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
)

// sections maps each top-level key to the function that reads its value
// into cfg. Adding a key to the file means adding one entry here.
var sections = map[string]func(p *parser, cfg *Config, key, val *yaml.Node){
	"kubeVersion": func(p *parser, cfg *Config, key, val *yaml.Node) {
		s, ok := p.scalar("kubeVersion", val)
		if !ok {
			return
		}
		v, err := ParseKubeVersion(s)
		if err != nil {
			p.Addf(val.Line, "kubeVersion", "%v", err)
			return
		}
		v.Line = key.Line
		cfg.KubeVersion = v
	},
	"kubeVersions": func(p *parser, cfg *Config, key, val *yaml.Node) {
		var text string
		switch val.Kind {
		case yaml.ScalarNode:
			text = val.Value
		case yaml.SequenceNode:
			entries, ok := p.strings("kubeVersions", val)
			if !ok {
				return
			}
			text = strings.Join(entries, ",")
		default:
			p.Addf(val.Line, "kubeVersions", "must be a list of releases or a string such as \"1.30-1.37\"")
			return
		}
		vs, err := ParseKubeVersions(text)
		if err != nil {
			p.Addf(val.Line, "kubeVersions", "%v", err)
			return
		}
		cfg.KubeVersions = KubeVersionList{Versions: vs, Line: key.Line}
	},
	"payloadCRDs": func(p *parser, cfg *Config, key, val *yaml.Node) {
		pc := &cfg.PayloadCRDs
		pc.Configured, pc.Line = true, key.Line
		p.mapping("payloadCRDs", val, map[string]func(*yaml.Node){
			"directory": func(v *yaml.Node) {
				pc.Directory = p.directory("payloadCRDs.directory", v, DefaultPayloadCRDDirectory, pc.Directory)
			},
			"include": func(v *yaml.Node) { pc.Include = p.patterns("payloadCRDs.include", v) },
			"exclude": func(v *yaml.Node) { pc.Exclude = p.patterns("payloadCRDs.exclude", v) },
		})
	},
	"compatibility": func(p *parser, cfg *Config, key, val *yaml.Node) {
		c := &cfg.Compatibility
		c.Line = key.Line
		p.mapping("compatibility", val, map[string]func(*yaml.Node){
			"enabled":    func(v *yaml.Node) { c.Enabled = p.boolean("compatibility.enabled", v) },
			"exceptions": func(v *yaml.Node) { c.Exceptions = p.patterns("compatibility.exceptions", v) },
		})
	},
	"featureGateDocs": func(p *parser, cfg *Config, key, val *yaml.Node) {
		d := &cfg.FeatureGateDocs
		d.Line = key.Line
		p.mapping("featureGateDocs", val, map[string]func(*yaml.Node){
			"directory": func(v *yaml.Node) { d.Directory = p.directory("featureGateDocs.directory", v, "features", d.Directory) },
		})
	},
	"strictMarkers": func(p *parser, cfg *Config, key, val *yaml.Node) {
		on := p.boolean("strictMarkers", val)
		cfg.StrictMarkers = &on
	},
	"referenceEra": func(p *parser, cfg *Config, key, val *yaml.Node) {
		s, ok := p.scalar("referenceEra", val)
		if !ok {
			return
		}
		era, err := refera.ParseEra(s)
		if err != nil {
			p.Addf(val.Line, "referenceEra", "%v", err)
			return
		}
		cfg.ReferenceEra = era
	},
	"enumFromConstants": func(p *parser, cfg *Config, key, val *yaml.Node) {
		cfg.EnumFromConstants = p.boolean("enumFromConstants", val)
	},
	"requiredAnnotations": func(p *parser, cfg *Config, key, val *yaml.Node) {
		ra := &cfg.RequiredAnnotations
		ra.Line = key.Line
		p.mapping("requiredAnnotations", val, map[string]func(*yaml.Node){
			"groupSuffix": func(v *yaml.Node) {
				if s, ok := p.scalar("requiredAnnotations.groupSuffix", v); ok {
					ra.GroupSuffix = s
				}
			},
			"annotations": func(v *yaml.Node) {
				if l, ok := p.strings("requiredAnnotations.annotations", v); ok {
					ra.Annotations = l
				}
			},
		})
	},
}

// Parse parses the content of a configuration file; file names it in
// problems. Keys that are absent keep their defaults.
func Parse(file string, data []byte) (Config, error) {
	cfg := Defaults()
	cfg.File = file
	p := &parser{Problems: yamlfile.Problems{File: file}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlfile.SyntaxError(err)
		p.Addf(line, "", "invalid YAML: %s", msg)
		return cfg, p.Err()
	}
	if len(doc.Content) == 0 || yamlfile.IsNull(doc.Content[0]) {
		return cfg, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		p.Addf(root.Line, "", "must be a mapping of keys (%s) to values", strings.Join(knownKeys(), ", "))
		return cfg, p.Err()
	}
	p.EachKey("", root, func(k, v *yaml.Node) {
		fn, ok := sections[k.Value]
		if !ok {
			p.Addf(k.Line, k.Value, "unknown key; known keys are %s", strings.Join(knownKeys(), ", "))
			return
		}
		if yamlfile.IsNull(v) {
			return
		}
		fn(p, &cfg, k, v)
	})
	return cfg, p.Err()
}

func knownKeys() []string {
	keys := make([]string, 0, len(sections))
	for k := range sections {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// parser collects the problems of one file.
type parser struct {
	yamlfile.Problems
}

// mapping reads a section whose value is a mapping with the given keys; a
// null value of a key keeps its default.
func (p *parser) mapping(section string, val *yaml.Node, fields map[string]func(*yaml.Node)) {
	if val.Kind != yaml.MappingNode {
		p.Addf(val.Line, section, "must be a mapping with keys %s", strings.Join(sortedKeys(fields), ", "))
		return
	}
	p.EachKey(section, val, func(k, v *yaml.Node) {
		fn, ok := fields[k.Value]
		if !ok {
			p.Addf(k.Line, section+"."+k.Value, "unknown key; %s accepts %s", section, strings.Join(sortedKeys(fields), ", "))
			return
		}
		if !yamlfile.IsNull(v) {
			fn(v)
		}
	})
}

func sortedKeys(m map[string]func(*yaml.Node)) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// scalar reads a string, number or boolean written as text. Numbers are
// kept as written, so kubeVersion: 1.30 stays "1.30".
func (p *parser) scalar(key string, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		p.Addf(v.Line, key, "must be a string")
		return "", false
	}
	return v.Value, true
}

// strings reads a list of strings.
func (p *parser) strings(key string, v *yaml.Node) ([]string, bool) {
	if v.Kind != yaml.SequenceNode {
		p.Addf(v.Line, key, "must be a list of strings")
		return nil, false
	}
	out := []string{}
	seen := map[string]int{}
	for _, item := range v.Content {
		s, ok := p.scalar(key, item)
		if !ok {
			continue
		}
		if s == "" {
			p.Addf(item.Line, key, "has an empty entry")
			continue
		}
		if line, dup := seen[s]; dup {
			p.Addf(item.Line, key, "%q is listed twice (first on line %d)", s, line)
			continue
		}
		seen[s] = item.Line
		out = append(out, s)
	}
	return out, true
}

// patterns reads a list of globs and checks their syntax.
func (p *parser) patterns(key string, v *yaml.Node) []Pattern {
	if v.Kind != yaml.SequenceNode {
		p.Addf(v.Line, key, "must be a list of glob patterns")
		return nil
	}
	l, _ := p.strings(key, v)
	var out []Pattern
	for i, s := range l {
		line := lineOf(v, s, i)
		if _, err := path.Match(s, ""); err != nil {
			p.Addf(line, key, "%q is not a valid glob pattern (path.Match syntax: *, ?, [a-z], no **)", s)
			continue
		}
		if path.IsAbs(s) || strings.HasPrefix(s, "../") || s != path.Clean(s) {
			p.Addf(line, key, "%q must be a clean path relative to the base directory, e.g. %q", s, path.Clean(strings.TrimPrefix(s, "/")))
			continue
		}
		out = append(out, Pattern{Glob: s, Line: line})
	}
	return out
}

// lineOf finds the line of the entry s of sequence v; i is a hint (the
// entry's index among the valid ones, which equals its index when there
// are no bad entries).
func lineOf(v *yaml.Node, s string, i int) int {
	if i < len(v.Content) && v.Content[i].Value == s {
		return v.Content[i].Line
	}
	for _, item := range v.Content {
		if item.Value == s {
			return item.Line
		}
	}
	return v.Line
}

// boolean reads a true/false value; anything else is a problem (and false).
func (p *parser) boolean(key string, v *yaml.Node) bool {
	var b bool
	if err := v.Decode(&b); err != nil || v.Kind != yaml.ScalarNode {
		p.Addf(v.Line, key, "must be true or false")
		return false
	}
	return b
}

// directory reads a directory below the base directory, cleaned; example
// is shown when it is not one, and old kept.
func (p *parser) directory(key string, v *yaml.Node, example, old string) string {
	s, ok := p.scalar(key, v)
	if !ok {
		return old
	}
	if s == "" || path.IsAbs(s) || strings.HasPrefix(path.Clean(s), "..") {
		p.Addf(v.Line, key, "must be a directory below the base directory, e.g. %s", example)
		return old
	}
	return path.Clean(s)
}
