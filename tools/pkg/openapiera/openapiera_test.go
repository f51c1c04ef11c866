package openapiera

import (
	"context"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func writeGoMod(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestVersion(t *testing.T) {
	const head = "module github.com/example/api\n\ngo 1.24.0\n\n"
	for _, tc := range []struct {
		name, goMod, want, err string
	}{
		{name: "direct", goMod: head + "require (\n\tk8s.io/api v0.34.1\n\tk8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b\n)\n", want: "v0.0.0-20250710124328-f3f2b991d03b"},
		{name: "indirect", goMod: head + "require k8s.io/api v0.35.1\n\nrequire (\n\tgithub.com/go-logr/logr v1.4.3 // indirect\n\tk8s.io/kube-openapi v0.0.0-20250910181357-589584f1c912 // indirect\n)\n", want: "v0.0.0-20250910181357-589584f1c912"},
		{name: "none", goMod: head + "require k8s.io/api v0.35.1\n"},
		{name: "no requirements", goMod: head},
		{name: "replaced by a version", goMod: head + "require k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b\n\nreplace k8s.io/kube-openapi => k8s.io/kube-openapi v0.0.0-20250910181357-589584f1c912\n", want: "v0.0.0-20250910181357-589584f1c912"},
		{name: "replace of another version", goMod: head + "require k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b\n\nreplace k8s.io/kube-openapi v0.0.0-20200101000000-000000000000 => ../kube-openapi\n", want: "v0.0.0-20250710124328-f3f2b991d03b"},
		{name: "replaced by a directory", goMod: head + "require k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b\n\nreplace k8s.io/kube-openapi => ../kube-openapi\n", err: "replaced by the directory ../kube-openapi"},
		{name: "replaced by a fork", goMod: head + "require k8s.io/kube-openapi v0.0.0-20250710124328-f3f2b991d03b\n\nreplace k8s.io/kube-openapi => github.com/fork/kube-openapi v0.1.0\n", err: "replaced by github.com/fork/kube-openapi v0.1.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Version(writeGoMod(t, tc.goMod))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Version() = %q, %v; want an error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Version() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := Version(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("Version of a directory without go.mod: %v", err)
	}
}

// TestBadVersion checks that a version that is not one of kube-openapi
// fails with an error that names it: at once when it is malformed, and
// from the module proxy when it does not exist (not under -short).
func TestBadVersion(t *testing.T) {
	t.Setenv("GATEDCRD_CACHE", t.TempDir())
	req := Request{ModuleDir: t.TempDir(), Inputs: []string{"./..."}, OutputDir: "openapi/generated_openapi", OutputFile: "zz_generated.openapi.go"}
	for _, v := range []string{"", "latest", "0.0.0-20250910181357-589584f1c912", "v0.0.0-20250910181357-589584f1c912 "} {
		_, _, err := Generate(context.Background(), v, req, nil)
		if err == nil || !strings.Contains(err.Error(), KubeOpenAPI) {
			t.Errorf("Generate with version %q: %v, want an error naming %s", v, err, KubeOpenAPI)
		}
	}
	if testing.Short() {
		return
	}
	const missing = "v0.0.0-20990101000000-0123456789ab"
	_, _, err := Generate(context.Background(), missing, req, nil)
	if err == nil || !strings.Contains(err.Error(), KubeOpenAPI+" "+missing+" is not available") {
		t.Errorf("Generate with version %s: %v", missing, err)
	}
}

func TestGengoFor(t *testing.T) {
	for v, want := range map[string]string{
		"v0.0.0-20250710124328-f3f2b991d03b": "",
		"v0.0.0-20250910181357-589584f1c912": gengoFloor,
		"v0.0.0-20260427204847-8949caaa1199": gengoFloor,
		"v0.1.0":                             "",
	} {
		if got := GengoFor(v); got != want {
			t.Errorf("GengoFor(%s) = %q, want %q", v, got, want)
		}
	}
}

// TestXToolsInStep checks that the programs require the x/tools this
// module links.
func TestXToolsInStep(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == "golang.org/x/tools" {
			if r.Mod.Version != XTools {
				t.Errorf("tools/go.mod requires golang.org/x/tools %s; XTools is %s", r.Mod.Version, XTools)
			}
			return
		}
	}
	t.Error("tools/go.mod does not require golang.org/x/tools")
}

func TestSources(t *testing.T) {
	files, err := sources("v0.0.0-20250910181357-589584f1c912")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := modfile.Parse("go.mod", files["go.mod"], nil)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []string
	for _, r := range mod.Require {
		reqs = append(reqs, r.Mod.String())
	}
	want := []string{KubeOpenAPI + "@v0.0.0-20250910181357-589584f1c912", "k8s.io/gengo/v2@" + gengoFloor, "golang.org/x/tools@" + XTools}
	if mod.Module.Mod.Path != programModulePath || !slices.Equal(reqs, want) {
		t.Errorf("go.mod:\n%s", files["go.mod"])
	}
	fset := token.NewFileSet()
	for _, name := range []string{"main.go", "targets_openapi.go", "targets_legacy.go"} {
		data, ok := files[name]
		if !ok {
			t.Fatalf("no %s", name)
		}
		if strings.Contains(string(data), "go:build ignore") {
			t.Errorf("%s keeps its ignore constraint", name)
		}
		f, err := parser.ParseFile(fset, name, data, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name.Name != "main" {
			t.Errorf("%s is package %s", name, f.Name.Name)
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "gatedcrd") {
				t.Errorf("%s imports %s, which the program module cannot resolve", name, imp.Path.Value)
			}
		}
	}
}

func TestMatcher(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"k8s.io/apimachinery/pkg/version/...", "k8s.io/apimachinery/pkg/version", true},
		{"k8s.io/apimachinery/pkg/version/...", "k8s.io/apimachinery/pkg/version/sub", true},
		{"k8s.io/apimachinery/pkg/version/...", "k8s.io/apimachinery/pkg/versions", false},
		{"k8s.io/apimachinery/pkg/version...", "k8s.io/apimachinery/pkg/versions", true},
		{"k8s.io/.../v1", "k8s.io/api/core/v1", true},
		{"k8s.io/.../v1", "k8s.io/api/core/v1beta1", false},
		{"k8s.io/...", "sigs.k8s.io/yaml", false},
	} {
		if got := matcher(tc.pattern)(tc.path); got != tc.want {
			t.Errorf("matcher(%q)(%q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// TestModulePatterns resolves a wildcard outside a module that imports
// nothing to nothing, and keeps the module's own patterns.
func TestModulePatterns(t *testing.T) {
	dir := writeGoMod(t, "module example.com/m\n\ngo 1.23.0\n")
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nimport _ \"fmt\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := []string{"k8s.io/api/core/v1", "k8s.io/apimachinery/pkg/version/...", "example.com/m/...", "./...", "fmt"}
	got, err := ModulePatterns(context.Background(), dir, in)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"k8s.io/api/core/v1", "example.com/m/...", "./...", "fmt"}
	if !slices.Equal(got, want) {
		t.Errorf("ModulePatterns() = %q, want %q", got, want)
	}
}

// TestVersionPrefersTheReference: a checkout carrying the reference
// (tools/go.mod) generated with the release the reference requires, even
// when the tree's own go.mod requires another.
func TestVersionPrefersTheReference(t *testing.T) {
	const head = "module github.com/example/api\n\ngo 1.24.0\n\n"
	dir := writeGoMod(t, head+"require k8s.io/kube-openapi v0.0.0-20260519202549-bbf5c5577288 // indirect\n")
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	tools := "module github.com/example/api/tools\n\ngo 1.24.0\n\nrequire k8s.io/kube-openapi v0.0.0-20260427204847-8949caaa1199\n"
	if err := os.WriteFile(filepath.Join(dir, "tools", "go.mod"), []byte(tools), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Version(dir); err != nil || got != "v0.0.0-20260427204847-8949caaa1199" {
		t.Errorf("Version() = %q, %v; want the reference's release", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools", "go.mod"), []byte("module github.com/example/api/tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Version(dir); err != nil || got != "v0.0.0-20260519202549-bbf5c5577288" {
		t.Errorf("Version() with a tools/go.mod without kube-openapi = %q, %v; want the tree's release", got, err)
	}
}
