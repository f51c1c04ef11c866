package discovery

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

const registerGo = `package %s

import "k8s.io/apimachinery/pkg/runtime/schema"

var GroupVersion = schema.GroupVersion{Group: GroupName, Version: "%s"}
`

func pkgFiles(dir, pkg, group, version string) map[string]string {
	return map[string]string{
		dir + "/doc.go":      "// +groupName=" + group + "\n// +openshift:featuregated-schema-gen=true\npackage " + pkg + "\n",
		dir + "/register.go": strings.Replace(strings.Replace(registerGo, "%s", pkg, 1), "%s", version, 1),
		dir + "/names.go":    "package " + pkg + "\n\nconst GroupName = \"" + group + "\"\n",
	}
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func TestDiscoverGroupsAndVersions(t *testing.T) {
	dir := testtree.Write(t, merge(
		pkgFiles("b/v1", "v1", "b.example.io", "v1"),
		pkgFiles("a/v1beta1", "v1beta1", "a.example.io", "v1beta1"),
		pkgFiles("a/v1", "v1", "a.example.io", "v1"),
		pkgFiles("vendor/x/v1", "v1", "x.example.io", "v1"),
		pkgFiles("_skip/v1", "v1", "y.example.io", "v1"),
		map[string]string{
			"a/.codegen.yaml":     "schemapatch:\n  disabled: true\ndeepcopy:\n  headerFilePath: x\n",
			"only/legacy/l.go":    "package legacy\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: \"l\", Version: \"v1\"}\n",
			"nested/go.mod":       "module nested\n",
			"nested/v1/doc.go":    "package v1\n",
			"nested/v1/types.go":  "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{Group: \"n\", Version: \"v1\"}\n",
			"a/v1/types_test.go":  "package v1\n",
			"empty/README.md":     "not go\n",
			"literal/v2/types.go": "package v2\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{Group: \"lit.example.io\", Version: \"v2\"}\n",
		},
	))
	res, probs, err := Discover(dir, nil)
	if err != nil {
		t.Fatalf("Discover: %v\n%v", err, probs.Items())
	}
	var got []string
	for _, g := range res.Groups {
		for _, v := range g.Versions {
			got = append(got, g.Name+"="+v.Name()+"@"+mustRel(t, dir, v.Dir)+" "+v.ImportPath[strings.LastIndex(v.ImportPath, "run-"):])
		}
	}
	want := []string{
		"a.example.io=a.example.io/v1@a/v1 " + filepath.Base(dir) + "/a/v1",
		"a.example.io=a.example.io/v1beta1@a/v1beta1 " + filepath.Base(dir) + "/a/v1beta1",
		"b.example.io=b.example.io/v1@b/v1 " + filepath.Base(dir) + "/b/v1",
		"lit.example.io=lit.example.io/v2@literal/v2 " + filepath.Base(dir) + "/literal/v2",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("discovered:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a := res.Groups[0]
	if !a.Config.SchemaPatch.Disabled || a.Config.EmptyPartialSchema.Disabled {
		t.Errorf("group a config = %+v, want schemapatch disabled only", a.Config)
	}
	if v := a.Versions[0]; v.GroupNameMarker != "a.example.io" || v.FeaturegatedSchemaGen != "true" || v.DocLines["+groupName"] != 1 {
		t.Errorf("doc.go markers not read: %+v", v)
	}
}

func TestFilter(t *testing.T) {
	dir := testtree.Write(t, merge(
		pkgFiles("a/v1", "v1", "a.example.io", "v1"),
		pkgFiles("a/v2", "v2", "a.example.io", "v2"),
	))
	res, _, err := Discover(dir, []string{"a.example.io/v2"})
	if err != nil {
		t.Fatal(err)
	}
	if vs := res.Versions(); len(vs) != 1 || vs[0].Version != "v2" {
		t.Fatalf("filtered versions = %v", vs)
	}
	_, _, err = Discover(dir, []string{"a.example.io/v1 a.example.io/v2"})
	var fe *FilterError
	if !errors.As(err, &fe) || strings.Join(fe.Unmatched, "|") != "a.example.io/v1 a.example.io/v2" ||
		err.Error() != "a.example.io/v1 a.example.io/v2 match(es) no API group-version (entries are <group>/<version>, comma-separated); known: a.example.io/v1, a.example.io/v2" {
		t.Fatalf("space-separated filter: err = %v", err)
	}
}

func TestDiscoverProblems(t *testing.T) {
	cases := []struct {
		name    string
		files   map[string]string
		wantErr string
	}{
		{"empty groupName", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/v1/doc.go": "// +groupName=\npackage v1\n",
		}), "doc.go:1: +groupName=: has no value: write +groupName=<value>"},
		{"conflicting groupName", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/v1/doc.go": "// +groupName=a.example.io\n\n// +groupName=b.example.io\npackage v1\n",
		}), "doc.go:3: +groupName=b.example.io: contradicts +groupName=a.example.io on line 1"},
		{"syntax error", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/v1/types.go": "package v1\n\ntype T struct {\n",
		}), "a/v1/types.go:3: Go syntax error: expected '}', found 'EOF'"},
		{"two package names", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/v1/zz_other.go": "// Package other is misplaced.\npackage other\n",
		}), "a/v1/zz_other.go:2: package other: the directory already holds package v1 (doc.go): the go command builds a directory as one package"},
		{"identifier declared in another file resolves", nil, ""},
		{"unresolvable identifier", map[string]string{
			"a/v1/register.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\nvar GroupVersion = schema.GroupVersion{Group: Missing, Version: \"v1\"}\n",
		}, "Missing is not a package-level constant"},
		{"versions in different directories", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), pkgFiles("other/v2", "v2", "a.example.io", "v2")),
			"other/v2/register.go:5: GroupVersion: API group \"a.example.io\" has versions in different directories (a/v1 and other/v2)"},
		{"unknown config key", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/.codegen.yaml": "schemapatch:\n  disabled: false\nmanifestMerge:\n  disable: true\n",
		}), ".codegen.yaml:4: manifestMerge.disable: unknown key; manifestMerge accepts disabled"},
		{"unknown generator", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/.codegen.yaml": "schemaPatch:\n  disabled: true\n",
		}), ".codegen.yaml:1: schemaPatch: unknown key"},
		{"config key twice", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/.codegen.yaml": "schemapatch:\n  disabled: true\n  disabled: false\nschemapatch: {}\n",
		}), ".codegen.yaml:3: schemapatch.disabled: is given twice (first on line 2)\n" +
			"$DIR/a/.codegen.yaml:4: schemapatch: is given twice (first on line 1)"},
		{"invalid config YAML", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/.codegen.yaml": "schemapatch: [\n",
		}), "invalid YAML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := c.files
			if files == nil {
				files = pkgFiles("a/v1", "v1", "a.example.io", "v1")
			}
			dir := testtree.Write(t, files)
			_, probs, err := Discover(dir, nil)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("expected an error containing %q; problems: %v", c.wantErr, probs.Items())
			}
			if !strings.Contains(err.Error(), strings.ReplaceAll(c.wantErr, "$DIR", dir)) {
				t.Fatalf("error %q lacks %q", err, c.wantErr)
			}
		})
	}
}

// TestMismatchesAreRecordedNotReported: a +groupName or a directory that
// disagrees with GroupVersion is no discovery error (the reference accepts
// such packages when they hold no CRD type); stage 1 reports it for the
// packages it processes.
func TestMismatchesAreRecordedNotReported(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"groupName mismatch", merge(pkgFiles("a/v1", "v1", "a.example.io", "v1"), map[string]string{
			"a/v1/doc.go": "// +groupName=other.example.io\npackage v1\n",
		}), `doc.go:1: +groupName=other.example.io: does not match GroupVersion's Group "a.example.io"`},
		{"directory not named after version", pkgFiles("a/docker10", "docker10", "a.example.io", "1.0"),
			`register.go:5: GroupVersion: declares version "1.0" but the package directory is "docker10"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, probs, err := Discover(testtree.Write(t, c.files), nil)
			if err != nil || len(probs.Items()) != 0 {
				t.Fatalf("err = %v, problems = %v; want neither", err, probs.Items())
			}
			vs := res.Versions()
			if len(vs) != 1 || len(vs[0].Mismatches) != 1 || !strings.Contains(vs[0].Mismatches[0].String(), c.want) {
				t.Fatalf("mismatches = %v, want one containing %q", vs[0].Mismatches, c.want)
			}
		})
	}
}

func TestMalformedGroupVersionIsIgnoredWithWarning(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"a/v1/register.go": "package v1\n\nvar GroupVersion = makeGV()\n\nfunc makeGV() int { return 0 }\n",
	})
	res, probs, err := Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Groups) != 0 {
		t.Fatalf("groups = %v, want none", res.Groups)
	}
	items := probs.Items()
	if len(items) != 1 || !strings.Contains(items[0].String(), "register.go:3: GroupVersion: is not initialised") {
		t.Fatalf("warnings = %v", items)
	}
}

func mustRel(t *testing.T, base, p string) string {
	r, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.ToSlash(r)
}

func TestParseConfigCompatibility(t *testing.T) {
	cfg, err := ParseConfig(".codegen.yaml", []byte("compatibility:\n  disabled: true\n"))
	if err != nil || !cfg.Compatibility.Disabled {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	_, err = ParseConfig(".codegen.yaml", []byte("compatibility:\n  disable: true\n"))
	if err == nil || !strings.Contains(err.Error(), ".codegen.yaml:2: compatibility.disable: unknown key; compatibility accepts disabled") {
		t.Fatalf("got %v", err)
	}
}
