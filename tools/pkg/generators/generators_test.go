package generators

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/protobuf"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func group(name string, cfg discovery.Config, versions ...*discovery.Version) *discovery.Group {
	return &discovery.Group{Name: name, Config: cfg, ConfigFile: "/repo/" + name + "/.codegen.yaml", Versions: versions}
}

// TestProtobufIsOptIn: only groups whose section says disabled: false
// get protobuf, less the versions (GroupVersion's) disabledVersions
// names; the section's header is the one used, never the flag's.
func TestProtobufIsOptIn(t *testing.T) {
	v := func(importPath, version string) *discovery.Version {
		return &discovery.Version{ImportPath: importPath, Version: version, Dir: "/repo/" + importPath}
	}
	ctx := &generator.Context{Discovery: &discovery.Result{Groups: []*discovery.Group{
		group("absent", discovery.Config{}, v("absent/v1", "v1")),
		group("off", discovery.Config{Protobuf: discovery.GeneratorConfig{Present: true, Disabled: true, DisabledSet: true}}, v("off/v1", "v1")),
		group("image", discovery.Config{Protobuf: discovery.GeneratorConfig{Present: true, DisabledSet: true, DisabledVersions: []string{"1.0"}}},
			v("image/docker10", "1.0"), v("image/v1", "v1")),
		group("route", discovery.Config{Protobuf: discovery.GeneratorConfig{Present: true, DisabledSet: true, HeaderFilePath: "/repo/h.txt"}}, v("route/v1", "v1")),
	}}}
	g := &Protobuf{HeaderFile: "flag.txt"}
	byHeader, headers, n := g.enabled(ctx)
	want := map[string][]protobuf.Package{
		"":            {{Dir: "/repo/image/v1", ImportPath: "image/v1"}},
		"/repo/h.txt": {{Dir: "/repo/route/v1", ImportPath: "route/v1"}},
	}
	if n != 2 || !reflect.DeepEqual(byHeader, want) || !reflect.DeepEqual(headers, []string{"", "/repo/h.txt"}) {
		t.Errorf("enabled = %v %v %d, want %v", byHeader, headers, n, want)
	}
}

// TestProtoOptionalSkipsWithAWarning: as with the reference, PROTO_OPTIONAL
// skips protobuf; here it says so.
func TestProtoOptionalSkipsWithAWarning(t *testing.T) {
	t.Setenv(protoOptional, "1")
	ctx := &generator.Context{Problems: &diag.List{}, Tree: tree.New(), Discovery: &discovery.Result{Groups: []*discovery.Group{
		group("route", discovery.Config{Protobuf: discovery.GeneratorConfig{Present: true, DisabledSet: true}}, &discovery.Version{ImportPath: "route/v1", Version: "v1"}),
	}}}
	if err := (&Protobuf{}).Generate(ctx); err != nil {
		t.Fatal(err)
	}
	items := ctx.Problems.Items()
	if len(items) != 1 || items[0].Severity != diag.Warning || !strings.Contains(items[0].Message, "PROTO_OPTIONAL") {
		t.Errorf("problems = %v, want one warning about PROTO_OPTIONAL", items)
	}
}

// TestSwaggerDocsCommentPolicy: a struct without a doc comment is an
// error only under --verify with Enforce; Warn and a generation warn;
// Ignore says nothing; an unknown policy is an error naming the file.
func TestSwaggerDocsCommentPolicy(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "types.go"), []byte("package v1\n\ntype Bare struct{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		policy string
		verify bool
		want   []diag.Severity
	}{
		{"Enforce", true, []diag.Severity{diag.Error}},
		{"Enforce", false, []diag.Severity{diag.Warning}},
		{"Warn", true, []diag.Severity{diag.Warning}},
		{"Ignore", true, nil},
		{"Sometimes", true, []diag.Severity{diag.Error}},
	}
	for _, tc := range cases {
		cfg := discovery.Config{SwaggerDocs: discovery.GeneratorConfig{Present: true, CommentPolicy: tc.policy}}
		ctx := &generator.Context{Verify: tc.verify, Problems: &diag.List{}, Tree: tree.New(), Discovery: &discovery.Result{Groups: []*discovery.Group{
			group("widgets", cfg, &discovery.Version{Dir: dir, PackageName: "v1"}),
		}}}
		if err := (&SwaggerDocs{OutputFile: "x.go", CommentPolicy: "Ignore"}).Generate(ctx); err != nil {
			t.Fatal(err)
		}
		var got []diag.Severity
		for _, d := range ctx.Problems.Items() {
			got = append(got, d.Severity)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s, verify %v: severities %v, want %v (%v)", tc.policy, tc.verify, got, tc.want, ctx.Problems.Items())
		}
	}
}
