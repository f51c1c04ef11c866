package genfiles

import "testing"

func TestUnneeded(t *testing.T) {
	const marshal = "package v1\n\nimport \"fmt\"\n\n// Marshal encodes m.\nfunc (m *Widget) Marshal() ([]byte, error) {\n\ttype local struct{}\n\tconst n = 1\n\treturn []byte(fmt.Sprint(n, local{})), nil\n}\n\nvar (\n\tfileDescriptor = []byte{1, 2}\n)\n\nfunc init() {}\n"
	cases := []struct {
		name, file, src string
		want            bool
	}{
		{"marshalling code only", "generated.pb.go", marshal, true},
		{"not a generated file", "types.go", marshal, false},
		{"swagger documentation", "zz_generated.swagger_doc_generated.go", "package v1\n\n// Generated.\nvar map_Widget = map[string]string{\n\t\"\": \"Widget is +a type.\",\n}\n\nfunc (Widget) SwaggerDoc() map[string]string {\n\treturn map_Widget\n}\n", true},
		{"a type", "generated.pb.go", marshal + "\ntype Extra struct{}\n", false},
		{"a type block", "generated.pb.go", marshal + "\ntype (\n\tExtra int\n)\n", false},
		{"a constant", "generated.pb.go", marshal + "\nconst Mode = \"a\"\n", false},
		{"a MarshalJSON method", "generated.pb.go", marshal + "\nfunc (m *Widget) MarshalJSON() ([]byte, error) { return nil, nil }\n", false},
		{"a MarshalText method", "generated.pb.go", marshal + "\nfunc (m Widget) MarshalText() ([]byte, error) { return nil, nil }\n", false},
		{"a marker", "generated.pb.go", marshal + "\n// +kubebuilder:object:generate=false\nvar x = 1\n", false},
		{"a marker in a block comment", "generated.pb.go", marshal + "\n/*\n +groupName=a.io\n*/\nvar x = 1\n", false},
		{"an old build constraint", "generated.protomessage.pb.go", "// +build tag\n\npackage v1\n\nfunc (*Widget) ProtoMessage() {}\n", false},
		{"unscannable", "generated.pb.go", marshal + "\nvar s = \"unterminated\n", false},
	}
	for _, c := range cases {
		if got := Unneeded(c.file, []byte(c.src)); got != c.want {
			t.Errorf("%s: Unneeded = %v, want %v", c.name, got, c.want)
		}
	}
}
