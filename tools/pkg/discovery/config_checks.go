package discovery

import (
	"encoding/json"

	yamlv3 "go.yaml.in/yaml/v3"

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

// crdify reads the crdify section: disabled and config.
func (r *configReader) crdify(val *yamlv3.Node) CrdifyConfig {
	c := CrdifyConfig{Present: true}
	c.Disabled, _ = r.stage("crdify", val, map[string]func(*yamlv3.Node){
		"config": func(v *yamlv3.Node) {
			var m map[string]any
			if v.Kind != yamlv3.MappingNode || v.Decode(&m) != nil {
				r.Addf(v.Line, "crdify.config", "must be a mapping (crdify's configuration: unhandledEnforcement, conversion, validations), not %s", yamlfile.Describe(v))
				return
			}
			data, err := json.Marshal(m)
			if err != nil {
				r.Addf(v.Line, "crdify.config", "cannot be read: %v", err)
				return
			}
			c.Config, c.ConfigLine = data, v.Line
		},
	})
	return c
}

// schemaCheck reads the schemacheck section: disabled, enabledValidators
// and disabledValidators.
func (r *configReader) schemaCheck(key, val *yamlv3.Node) SchemaCheckConfig {
	c := SchemaCheckConfig{Present: true, Line: key.Line}
	list := func(dst *[]string, name string) func(*yamlv3.Node) {
		return func(v *yamlv3.Node) { *dst, _ = r.Strings("schemacheck."+name, v, "comparator names") }
	}
	c.Disabled, _ = r.stage("schemacheck", val, map[string]func(*yamlv3.Node){
		"enabledValidators":  list(&c.EnabledValidators, "enabledValidators"),
		"disabledValidators": list(&c.DisabledValidators, "disabledValidators"),
	})
	return c
}
