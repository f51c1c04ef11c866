package discovery

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(data, &doc); err != nil {
		line, _ := yamlfile.SyntaxError(err)
		return cfg, diag.Errorf(file, line, "", "invalid YAML: %v", err)
	}
	if len(doc.Content) == 0 {
		return cfg, nil
	}
	root := doc.Content[0]
	if yamlfile.IsNull(root) {
		return cfg, nil
	}
	if root.Kind != yamlv3.MappingNode {
		return cfg, diag.Errorf(file, root.Line, "", "must be a mapping of generator names to their settings")
	}
	var problems diag.List
	forEachKey(file, "", root, &problems, func(key, val *yamlv3.Node) {
		switch key.Value {
		case "emptyPartialSchema":
			cfg.EmptyPartialSchema.Disabled = parseStage(file, key.Value, val, nil, &problems)
		case "manifestMerge":
			cfg.ManifestMerge.Disabled = parseStage(file, key.Value, val, nil, &problems)
		case "compatibility":
			cfg.Compatibility.Disabled = parseStage(file, key.Value, val, nil, &problems)
		case "schemapatch":
			cfg.SchemaPatch.Present = true
			cfg.SchemaPatch.Disabled = parseStage(file, key.Value, val, map[string]func(*yamlv3.Node){
				"requiredFeatureSets": func(v *yamlv3.Node) {
					if yamlfile.IsNull(v) {
						return
					}
					if err := v.Decode(&cfg.SchemaPatch.RequiredFeatureSets); err != nil {
						problems.Add(diag.Errorf(file, v.Line, "schemapatch.requiredFeatureSets", "must be a list of strings"))
					}
				},
			}, &problems)
		case "compat":
			cfg.Compat = parseCompat(file, val, &problems)
		case "crdify":
			cfg.Crdify = parseCrdify(file, val, &problems)
		case "schemacheck":
			cfg.SchemaCheck = parseSchemaCheck(file, key, val, &problems)
		case "deepcopy":
			cfg.Deepcopy = parseGenerator(file, key.Value, val, &problems)
		case "swaggerdocs":
			cfg.SwaggerDocs = parseGenerator(file, key.Value, val, &problems)
		case "openapi":
			cfg.OpenAPI = parseGenerator(file, key.Value, val, &problems)
		case "modelname":
			cfg.ModelName = parseGenerator(file, key.Value, val, &problems)
		case "protobuf":
			cfg.Protobuf = parseGenerator(file, key.Value, val, &problems)
		default:
			if !otherGenerators[key.Value] {
				problems.Add(unknownKey(diag.Errorf(file, key.Line, key.Value, "unknown key; known keys are %s", knownKeys())))
			}
		}
	})
	return cfg, problems.Err()
}

// parseStage reads a stage section: a mapping with "disabled" plus extra
// keys; null means "not configured".
func parseStage(file, section string, val *yamlv3.Node, extra map[string]func(*yamlv3.Node), problems *diag.List) bool {
	if yamlfile.IsNull(val) {
		return false
	}
	if val.Kind != yamlv3.MappingNode {
		problems.Add(diag.Errorf(file, val.Line, section, "must be a mapping"))
		return false
	}
	disabled := false
	forEachKey(file, section, val, problems, func(k, v *yamlv3.Node) {
		if k.Value == "disabled" {
			if err := v.Decode(&disabled); err != nil {
				problems.Add(diag.Errorf(file, v.Line, section+".disabled", "must be true or false"))
			}
			return
		}
		if fn, ok := extra[k.Value]; ok {
			fn(v)
			return
		}
		allowed := []string{"disabled"}
		for name := range extra {
			allowed = append(allowed, name)
		}
		sort.Strings(allowed)
		problems.Add(unknownKey(diag.Errorf(file, k.Line, section+"."+k.Value, "unknown key; %s accepts %s", section, strings.Join(allowed, ", "))))
	})
	return disabled
}

// forEachKey calls fn for every key of the mapping m; a key given twice is
// an error (yamlfile.Problems.EachKey).
func forEachKey(file, section string, m *yamlv3.Node, problems *diag.List, fn func(key, val *yamlv3.Node)) {
	keys := &yamlfile.Problems{File: file}
	keys.EachKey(section, m, fn)
	problems.AddError(keys.Err())
}

// unknownKey marks d as a strict-mode finding: the reference ignores keys
// it does not know, so only --strict-markers makes them fail.
func unknownKey(d diag.Diagnostic) diag.Diagnostic {
	d.Strict = true
	return d
}

func knownKeys() string {
	keys := []string{"compat", "compatibility", "crdify", "emptyPartialSchema", "manifestMerge", "schemacheck", "schemapatch"}
	for k := range generatorSections {
		keys = append(keys, k)
	}
	for k := range otherGenerators {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// parseCompat reads the compat section: a mapping with one key, accepted,
// a list of mappings with the keys crd, check, path and reason, each a
// non-empty string. An entry given twice is an error.
func parseCompat(file string, val *yamlv3.Node, problems *diag.List) CompatConfig {
	var cfg CompatConfig
	if yamlfile.IsNull(val) {
		return cfg
	}
	if val.Kind != yamlv3.MappingNode {
		problems.Add(diag.Errorf(file, val.Line, "compat", "must be a mapping"))
		return cfg
	}
	forEachKey(file, "compat", val, problems, func(k, v *yamlv3.Node) {
		if k.Value != "accepted" {
			problems.Add(unknownKey(diag.Errorf(file, k.Line, "compat."+k.Value, "unknown key; compat accepts accepted")))
			return
		}
		if yamlfile.IsNull(v) {
			return
		}
		if v.Kind != yamlv3.SequenceNode {
			problems.Add(diag.Errorf(file, v.Line, "compat.accepted", "must be a list of entries with crd, check, path and reason"))
			return
		}
		seen := map[[3]string]int{}
		for _, item := range v.Content {
			a, ok := parseAccepted(file, item, problems)
			if !ok {
				continue
			}
			key := [3]string{a.CRD, a.Check, a.Path}
			if line, dup := seen[key]; dup {
				problems.Add(diag.Errorf(file, item.Line, "compat.accepted", "accepts %s %s %s again (first on line %d)", a.CRD, a.Check, a.Path, line))
				continue
			}
			seen[key] = item.Line
			cfg.Accepted = append(cfg.Accepted, a)
		}
	})
	return cfg
}

// parseAccepted reads one compat.accepted entry.
func parseAccepted(file string, item *yamlv3.Node, problems *diag.List) (AcceptedFinding, bool) {
	a := AcceptedFinding{Line: item.Line}
	if item.Kind != yamlv3.MappingNode {
		problems.Add(diag.Errorf(file, item.Line, "compat.accepted", "an entry must be a mapping with crd, check, path and reason"))
		return a, false
	}
	fields := map[string]*string{"crd": &a.CRD, "check": &a.Check, "path": &a.Path, "reason": &a.Reason}
	ok := true
	forEachKey(file, "compat.accepted", item, problems, func(k, v *yamlv3.Node) {
		dst, known := fields[k.Value]
		if !known {
			problems.Add(unknownKey(diag.Errorf(file, k.Line, "compat.accepted."+k.Value, "unknown key; an entry has crd, check, path and reason")))
			ok = false
			return
		}
		if v.Kind != yamlv3.ScalarNode || v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
			problems.Add(diag.Errorf(file, v.Line, "compat.accepted."+k.Value, "must be a non-empty string"))
			ok = false
			return
		}
		*dst = v.Value
	})
	for _, name := range []string{"check", "crd", "path", "reason"} {
		if *fields[name] == "" && ok {
			problems.Add(diag.Errorf(file, item.Line, "compat.accepted", "entry lacks %s (an entry has crd, check, path and reason)", name))
			ok = false
		}
	}
	return a, ok
}
