package repoconfig

import (
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/refera"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
)

// sections maps each top-level key to the function that reads its value
// into cfg. Adding a key to the file means adding one entry here.
var sections = map[string]func(p *parser, cfg *Config, key, val *yaml.Node){
	"kubeVersion": func(p *parser, cfg *Config, key, val *yaml.Node) {
		s, ok := p.String("kubeVersion", val)
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
			entries, ok := p.strings("kubeVersions", val, "releases")
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
			"enabled":    func(v *yaml.Node) { c.Enabled, _ = p.Bool("compatibility.enabled", v) },
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
		if on, ok := p.Bool("strictMarkers", val); ok {
			cfg.StrictMarkers = &on
		}
	},
	"referenceEra": func(p *parser, cfg *Config, key, val *yaml.Node) {
		s, ok := p.String("referenceEra", val)
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
		cfg.EnumFromConstants, _ = p.Bool("enumFromConstants", val)
	},
	"requiredAnnotations": func(p *parser, cfg *Config, key, val *yaml.Node) {
		ra := &cfg.RequiredAnnotations
		ra.Line = key.Line
		p.mapping("requiredAnnotations", val, map[string]func(*yaml.Node){
			"groupSuffix": func(v *yaml.Node) {
				if s, ok := p.String("requiredAnnotations.groupSuffix", v); ok {
					ra.GroupSuffix = s
				}
			},
			"annotations": func(v *yaml.Node) {
				if l, ok := p.strings("requiredAnnotations.annotations", v, "strings"); ok {
					ra.Annotations = l
				}
			},
		})
	},
}

// Parse parses the content of a configuration file; file names it in
// problems. Keys that are absent or null keep their defaults.
func Parse(file string, data []byte) (Config, error) {
	cfg := Defaults()
	cfg.File = file
	p := &parser{*yamlfile.NewReader(file)}
	root, _ := p.Parse(data)
	if root == nil {
		return cfg, p.Err()
	}
	fields := make(map[string]func(yamlfile.Field), len(sections))
	for name, fn := range sections {
		fields[name] = func(f yamlfile.Field) { fn(p, &cfg, f.Key, f.Value) }
	}
	p.Each("", root, fields)
	return cfg, p.Err()
}

// parser collects the problems of one file.
type parser struct {
	yamlfile.Reader
}

// mapping reads a section whose value is a mapping with the given keys; a
// null value of a key keeps its default.
func (p *parser) mapping(section string, val *yaml.Node, fields map[string]func(*yaml.Node)) {
	each := make(map[string]func(yamlfile.Field), len(fields))
	for name, fn := range fields {
		each[name] = func(f yamlfile.Field) { fn(f.Value) }
	}
	p.Each(section, val, each)
}

// strings reads a list of strings, none of them empty or listed twice.
func (p *parser) strings(key string, v *yaml.Node, of string) ([]string, bool) {
	items, ok := p.List(key, v, of)
	if !ok {
		return nil, false
	}
	out := []string{}
	seen := map[string]int{}
	for _, item := range items {
		s, ok := p.String(key, item)
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
	l, ok := p.strings(key, v, "glob patterns")
	if !ok {
		return nil
	}
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

// directory reads a directory below the base directory, cleaned; example
// is shown when it is not one, and old kept.
func (p *parser) directory(key string, v *yaml.Node, example, old string) string {
	s, ok := p.String(key, v)
	if !ok {
		return old
	}
	if s == "" || path.IsAbs(s) || strings.HasPrefix(path.Clean(s), "..") {
		p.Addf(v.Line, key, "must be a directory below the base directory, e.g. %s", example)
		return old
	}
	return path.Clean(s)
}
