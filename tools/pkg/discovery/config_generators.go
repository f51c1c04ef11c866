package discovery

import (
	"path/filepath"

	yamlv3 "go.yaml.in/yaml/v3"
)

// GeneratorConfig is a .codegen.yaml section of a generator that writes
// Go or proto files. Present records that the section was given: the
// reference then takes every option from it, so an option the section
// leaves out has its default, not the command line's value.
type GeneratorConfig struct {
	Present  bool
	Disabled bool
	// HeaderFilePath is deepcopy's relative to .codegen.yaml's directory,
	// made absolute here; protobuf's is relative to the working directory,
	// as with the reference.
	HeaderFilePath string
	// OutputFile is deepcopy's outputFileBaseName, swaggerdocs' and
	// modelname's outputFileName.
	OutputFile string
	// CommentPolicy is swaggerdocs' commentPolicy.
	CommentPolicy string
	// DisabledVersions are protobuf's versions left out.
	DisabledVersions []string
	// DisabledSet records that protobuf's disabled was given: protobuf
	// is the one generator off unless a group turns it on.
	DisabledSet bool
}

// generatorSections are the sections parseGenerator reads, with the keys
// each accepts besides disabled.
var generatorSections = map[string][]string{
	"deepcopy":    {"headerFilePath", "outputFileBaseName"},
	"swaggerdocs": {"commentPolicy", "outputFileName"},
	"openapi":     nil,
	"modelname":   {"outputFileName"},
	"protobuf":    {"disabledVersions", "headerFilePath"},
}

// generator reads the section of one generator.
func (r *configReader) generator(section string, val *yamlv3.Node) GeneratorConfig {
	g := GeneratorConfig{Present: true}
	str := func(dst *string, key string) func(*yamlv3.Node) {
		return func(v *yamlv3.Node) { *dst, _ = r.String(section+"."+key, v) }
	}
	fields := map[string]func(*yamlv3.Node){
		"headerFilePath":     str(&g.HeaderFilePath, "headerFilePath"),
		"outputFileBaseName": str(&g.OutputFile, "outputFileBaseName"),
		"outputFileName":     str(&g.OutputFile, "outputFileName"),
		"commentPolicy":      str(&g.CommentPolicy, "commentPolicy"),
		"disabledVersions": func(v *yamlv3.Node) {
			g.DisabledVersions, _ = r.Strings(section+".disabledVersions", v, "strings")
		},
	}
	extra := map[string]func(*yamlv3.Node){}
	for _, k := range generatorSections[section] {
		extra[k] = fields[k]
	}
	g.Disabled, g.DisabledSet = r.stage(section, val, extra)
	// The reference resolves deepcopy's header relative to the file;
	// protobuf's it leaves relative to the working directory.
	if section == "deepcopy" && g.HeaderFilePath != "" && !filepath.IsAbs(g.HeaderFilePath) {
		g.HeaderFilePath = filepath.Join(filepath.Dir(r.File), g.HeaderFilePath)
	}
	return g
}
