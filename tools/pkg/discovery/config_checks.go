package discovery

import (
	"encoding/json"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
)

// CrdifyConfig is the crdify section, read by `codegen crdify`. Present
// records that the section was given.
type CrdifyConfig struct {
	Present, Disabled bool
	// Config is the section's config (sigs.k8s.io/crdify's configuration:
	// unhandledEnforcement, conversion, validations) as JSON, nil when
	// absent; the crdify check decodes and validates it.
	Config []byte
	// ConfigLine is the line where the config mapping starts.
	ConfigLine int
}

// SchemaCheckConfig is the schemacheck section, read by `codegen
// schemacheck`. When Present, it replaces the command line's
// --schemacheck:enabled-validators and --schemacheck:disabled-validators
// for the group, as with the reference.
type SchemaCheckConfig struct {
	Present, Disabled bool
	// EnabledValidators are added to the default comparators and
	// DisabledValidators removed from them.
	EnabledValidators, DisabledValidators []string
	// Line is the section's line, for errors about its names.
	Line int
}

// parseCrdify reads the crdify section: disabled and config.
func parseCrdify(file string, val *yamlv3.Node, problems *diag.List) CrdifyConfig {
	c := CrdifyConfig{Present: !yamlfile.IsNull(val)}
	c.Disabled = parseStage(file, "crdify", val, map[string]func(*yamlv3.Node){
		"config": func(v *yamlv3.Node) {
			if yamlfile.IsNull(v) {
				return
			}
			var m map[string]any
			if v.Kind != yamlv3.MappingNode || v.Decode(&m) != nil {
				problems.Add(diag.Errorf(file, v.Line, "crdify.config", "must be a mapping (crdify's configuration: unhandledEnforcement, conversion, validations)"))
				return
			}
			data, err := json.Marshal(m)
			if err != nil {
				problems.Add(diag.Errorf(file, v.Line, "crdify.config", "cannot be read: %v", err))
				return
			}
			c.Config, c.ConfigLine = data, v.Line
		},
	}, problems)
	return c
}

// parseSchemaCheck reads the schemacheck section: disabled,
// enabledValidators and disabledValidators.
func parseSchemaCheck(file string, key, val *yamlv3.Node, problems *diag.List) SchemaCheckConfig {
	c := SchemaCheckConfig{Present: !yamlfile.IsNull(val), Line: key.Line}
	list := func(dst *[]string, name string) func(*yamlv3.Node) {
		return func(v *yamlv3.Node) {
			if yamlfile.IsNull(v) {
				return
			}
			if v.Kind != yamlv3.SequenceNode || v.Decode(dst) != nil {
				problems.Add(diag.Errorf(file, v.Line, "schemacheck."+name, "must be a list of comparator names"))
			}
		}
	}
	c.Disabled = parseStage(file, "schemacheck", val, map[string]func(*yamlv3.Node){
		"enabledValidators":  list(&c.EnabledValidators, "enabledValidators"),
		"disabledValidators": list(&c.DisabledValidators, "disabledValidators"),
	}, problems)
	return c
}
