package discovery

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
)

// ConfigFileName is the per-group configuration file.
const ConfigFileName = ".codegen.yaml"

// Config is the part of .codegen.yaml the CRD stages read. A key that is
// present but empty is the same as absent.
type Config struct {
	EmptyPartialSchema StageConfig
	SchemaPatch        SchemaPatchConfig
	ManifestMerge      StageConfig
	// Compatibility switches the compatibility level comments off.
	Compatibility StageConfig
	// Compat configures `codegen compat` for the group.
	Compat CompatConfig
	// Crdify and SchemaCheck configure `codegen crdify` and `codegen
	// schemacheck` for the group.
	Crdify      CrdifyConfig
	SchemaCheck SchemaCheckConfig
	// Deepcopy, SwaggerDocs, OpenAPI, ModelName and Protobuf are the
	// sections of the generators of Go and proto files.
	Deepcopy, SwaggerDocs, OpenAPI, ModelName, Protobuf GeneratorConfig
}

// CompatConfig is the compat section: breaking changes the group's owners
// accepted, reviewable like code.
type CompatConfig struct {
	Accepted []AcceptedFinding
}

// AcceptedFinding accepts one finding of `codegen compat`. Every field is
// required; the compat package checks that Check names a known check.
type AcceptedFinding struct {
	// CRD is the CustomResourceDefinition name, Check the check's name and
	// Path the schema path the finding names (as printed by compat).
	CRD, Check, Path string
	// Reason says why the change is acceptable.
	Reason string
	// Line is the entry's line in the file.
	Line int
}

// StageConfig switches one stage off for a group.
type StageConfig struct {
	Disabled bool
}

// SchemaPatchConfig configures stage 2.
type SchemaPatchConfig struct {
	Disabled bool
	// RequiredFeatureSets is the legacy FeatureSet filter. It is parsed so that
	// existing files load, but the legacy mode itself is not supported.
	RequiredFeatureSets []string
	// Present records that the schemapatch key was given.
	Present bool
}

// otherGenerators are top-level keys of generators outside this project:
// accepted with any content, never interpreted.
var otherGenerators = map[string]bool{
	"applyconfigurations": true, "lists": true,
}

// LoadConfig reads dir/.codegen.yaml. A missing file yields the zero Config
// and an empty file name. Unknown keys are strict-mode findings (see
// diag.Diagnostic.Strict) naming file and line.
func LoadConfig(dir string) (Config, string, error) {
	file := filepath.Join(dir, ConfigFileName)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, "", nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Config{}, "", diag.Errorf(file, 0, "", "cannot be read: %v", err)
	}
	cfg, err := ParseConfig(file, data)
	return cfg, file, err
}

// ParseConfig parses the content of a .codegen.yaml file.
func ParseConfig(file string, data []byte) (Config, error) {
	var cfg Config
	r := newConfigReader(file)
	root, _ := r.Parse(data)
	if root == nil {
		return cfg, r.err()
	}
	if root.Kind != yamlv3.MappingNode {
		r.Addf(root.Line, "", "must be a mapping of generator names to their settings")
		return cfg, r.err()
	}
	stage := func(dst *bool) func(yamlfile.Field) {
		return func(f yamlfile.Field) { *dst, _ = r.stage(f.Key.Value, f.Value, nil) }
	}
	generator := func(dst *GeneratorConfig) func(yamlfile.Field) {
		return func(f yamlfile.Field) { *dst = r.generator(f.Key.Value, f.Value) }
	}
	sections := map[string]func(yamlfile.Field){
		"emptyPartialSchema": stage(&cfg.EmptyPartialSchema.Disabled),
		"manifestMerge":      stage(&cfg.ManifestMerge.Disabled),
		"compatibility":      stage(&cfg.Compatibility.Disabled),
		"schemapatch": func(f yamlfile.Field) {
			cfg.SchemaPatch.Present = true
			cfg.SchemaPatch.Disabled, _ = r.stage("schemapatch", f.Value, map[string]func(*yamlv3.Node){
				"requiredFeatureSets": func(v *yamlv3.Node) {
					cfg.SchemaPatch.RequiredFeatureSets, _ = r.Strings("schemapatch.requiredFeatureSets", v, "strings")
				},
			})
		},
		"compat":      func(f yamlfile.Field) { cfg.Compat = r.compat(f.Value) },
		"crdify":      func(f yamlfile.Field) { cfg.Crdify = r.crdify(f.Value) },
		"schemacheck": func(f yamlfile.Field) { cfg.SchemaCheck = r.schemaCheck(f.Key, f.Value) },
		"deepcopy":    generator(&cfg.Deepcopy),
		"swaggerdocs": generator(&cfg.SwaggerDocs),
		"openapi":     generator(&cfg.OpenAPI),
		"modelname":   generator(&cfg.ModelName),
		"protobuf":    generator(&cfg.Protobuf),
	}
	for name := range otherGenerators {
		sections[name] = func(yamlfile.Field) {}
	}
	r.Each("", root, sections)
	return cfg, r.err()
}

// configReader reads one .codegen.yaml file. Unknown keys become
// strict-mode findings in strict rather than problems: the reference
// ignores keys it does not know, so only --strict-markers makes them fail.
type configReader struct {
	yamlfile.Reader
	strict diag.List
	// unknown counts the unknown keys, so that an entry with one can be
	// left out.
	unknown int
}

func newConfigReader(file string) *configReader {
	r := &configReader{Reader: *yamlfile.NewReader(file)}
	r.Unknown = func(section string, f yamlfile.Field, known []string) {
		r.unknown++
		d := diag.Errorf(file, f.Key.Line, yamlfile.Dotted(section, f.Key.Value), "%s", yamlfile.UnknownKey(section, known))
		d.Strict = true
		r.strict.Add(d)
	}
	return r
}

// err returns the file's problems and strict-mode findings as one error.
func (r *configReader) err() error {
	var all diag.List
	all.AddError(r.Err())
	all.Add(r.strict.Items()...)
	return all.Err()
}

// stage reads a stage section: a mapping with "disabled" plus extra keys.
// given says whether disabled was given.
func (r *configReader) stage(section string, val *yamlv3.Node, extra map[string]func(*yamlv3.Node)) (disabled, given bool) {
	fields := map[string]func(yamlfile.Field){
		"disabled": func(f yamlfile.Field) {
			given = true
			disabled, _ = r.Bool(section+".disabled", f.Value)
		},
	}
	for name, fn := range extra {
		fields[name] = func(f yamlfile.Field) { fn(f.Value) }
	}
	r.Each(section, val, fields)
	return disabled, given
}

// compat reads the compat section: a mapping with one key, accepted, a
// list of mappings with the keys crd, check, path and reason, each a
// non-empty string. An entry given twice is an error.
func (r *configReader) compat(val *yamlv3.Node) CompatConfig {
	var cfg CompatConfig
	r.Each("compat", val, map[string]func(yamlfile.Field){
		"accepted": func(f yamlfile.Field) {
			items, ok := r.List("compat.accepted", f.Value, "entries with crd, check, path and reason")
			if !ok {
				return
			}
			seen := map[[3]string]int{}
			for _, item := range items {
				a, ok := r.accepted(item)
				if !ok {
					continue
				}
				key := [3]string{a.CRD, a.Check, a.Path}
				if line, dup := seen[key]; dup {
					r.Addf(item.Line, "compat.accepted", "accepts %s %s %s again (first on line %d)", a.CRD, a.Check, a.Path, line)
					continue
				}
				seen[key] = item.Line
				cfg.Accepted = append(cfg.Accepted, a)
			}
		},
	})
	return cfg
}

// accepted reads one compat.accepted entry; an entry with a problem or an
// unknown key is left out.
func (r *configReader) accepted(item *yamlv3.Node) (AcceptedFinding, bool) {
	a := AcceptedFinding{Line: item.Line}
	before, unknown := r.Len(), r.unknown
	fields := r.Fields("compat.accepted", item, "crd", "check", "path", "reason")
	if fields == nil {
		return a, false
	}
	for name, dst := range map[string]*string{"crd": &a.CRD, "check": &a.Check, "path": &a.Path, "reason": &a.Reason} {
		if f, ok := fields[name]; ok {
			*dst, _ = r.NonEmpty("compat.accepted."+name, f.Value)
		}
	}
	if r.Len() != before || r.unknown != unknown {
		return a, false
	}
	for _, name := range []string{"check", "crd", "path", "reason"} {
		if _, ok := fields[name]; !ok {
			r.Addf(item.Line, "compat.accepted", "entry lacks %s (an entry has crd, check, path and reason)", name)
			return a, false
		}
	}
	return a, true
}
