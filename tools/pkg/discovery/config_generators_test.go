package discovery

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// TestParseGeneratorSections reads the sections of the generators of Go
// and proto files as openshift/api's .codegen.yaml files write them.
func TestParseGeneratorSections(t *testing.T) {
	file := filepath.Join("/repo", "image", ".codegen.yaml")
	cfg, err := ParseConfig(file, []byte(`deepcopy:
  headerFilePath: ../hack/empty.txt
  outputFileBaseName: zz_generated.deepcopy.go
swaggerdocs:
  commentPolicy: Warn
  outputFileName: zz_generated.swagger_doc_generated.go
openapi:
  disabled: true
modelname:
  outputFileName: names.go
protobuf:
  disabled: false
  disabledVersions:
  - "1.0"
  - pre012
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Deepcopy:    GeneratorConfig{Present: true, HeaderFilePath: "/repo/hack/empty.txt", OutputFile: "zz_generated.deepcopy.go"},
		SwaggerDocs: GeneratorConfig{Present: true, CommentPolicy: "Warn", OutputFile: "zz_generated.swagger_doc_generated.go"},
		OpenAPI:     GeneratorConfig{Present: true, Disabled: true, DisabledSet: true},
		ModelName:   GeneratorConfig{Present: true, OutputFile: "names.go"},
		Protobuf:    GeneratorConfig{Present: true, DisabledSet: true, DisabledVersions: []string{"1.0", "pre012"}},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("ParseConfig =\n%+v\nwant\n%+v", cfg, want)
	}
}

// TestParseGeneratorSectionProblems: a key a section does not know is a
// strict-mode finding naming file, line and section; a wrong type is an
// error.
func TestParseGeneratorSectionProblems(t *testing.T) {
	cases := []struct {
		yaml, want string
		strict     bool
	}{
		{"deepcopy:\n  outputFile: x.go\n", "deepcopy.outputFile", true},
		{"swaggerdocs:\n  commentPolicy: [Warn]\n", "swaggerdocs.commentPolicy", false},
		{"protobuf:\n  disabledVersions: v1\n", "protobuf.disabledVersions", false},
		{"openapi:\n  disabled: maybe\n", "openapi.disabled", false},
	}
	for _, tc := range cases {
		_, err := ParseConfig(".codegen.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ".codegen.yaml:2") {
			t.Errorf("%q: error %v, want one at .codegen.yaml:2 naming %s", tc.yaml, err, tc.want)
			continue
		}
		var d diag.Diagnostic
		if !errors.As(err, &d) {
			t.Errorf("%q: %T is no diag.Diagnostic", tc.yaml, err)
		} else if d.Strict != tc.strict {
			t.Errorf("%q: strict %v, want %v", tc.yaml, d.Strict, tc.strict)
		}
	}
}
