package payloadcrds

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// fixture is two API versions with generated manifests and a payload
// directory holding a stale copy and a file no glob selects.
func fixture(t *testing.T) *discovery.Result {
	dir := testtree.Write(t, map[string]string{
		"a/v1/zz_generated.crd-manifests/0000_10_a-Default.crd.yaml": "a default\n",
		"a/v1/zz_generated.crd-manifests/0000_10_a-OKD.crd.yaml":     "a okd\n",
		"a/v1/zz_generated.crd-manifests/doc.go":                     "package crdmanifests\n",
		"b/v1alpha1/zz_generated.crd-manifests/0000_10_b.crd.yaml":   "b\n",
		"payload-manifests/crds/0000_10_a-Default.crd.yaml":          "stale\n",
		"payload-manifests/crds/0000_99_gone.crd.yaml":               "untracked\n",
	})
	version := func(group, rel string) *discovery.Group {
		return &discovery.Group{Name: group, Dir: filepath.Dir(filepath.Join(dir, rel)), Versions: []*discovery.Version{{Group: group, Dir: filepath.Join(dir, rel)}}}
	}
	return &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{version("a.example.com", "a/v1"), version("b.example.com", "b/v1alpha1")}}
}

func config(include, exclude []string) repoconfig.PayloadCRDs {
	c := repoconfig.PayloadCRDs{Configured: true, Directory: repoconfig.DefaultPayloadCRDDirectory}
	for i, g := range include {
		c.Include = append(c.Include, repoconfig.Pattern{Glob: g, Line: 10 + i})
	}
	for i, g := range exclude {
		c.Exclude = append(c.Exclude, repoconfig.Pattern{Glob: g, Line: 20 + i})
	}
	return c
}

func run(t *testing.T, cfg repoconfig.PayloadCRDs) (*discovery.Result, *tree.Tree, *Result, []string) {
	disc := fixture(t)
	tr := tree.New()
	res, problems := Run(Input{Discovery: disc, Tree: tr, Config: cfg, ConfigFile: filepath.Join(disc.BaseDir, repoconfig.FileName)})
	var msgs []string
	for _, p := range problems {
		p.File = tree.Rel(disc.BaseDir, p.File)
		msgs = append(msgs, p.String())
	}
	return disc, tr, res, msgs
}

func TestRunCopiesSelectedFilesAndRemovesTheRest(t *testing.T) {
	disc, tr, res, problems := run(t, config(
		[]string{"a/v1/zz_generated.crd-manifests/*.crd.yaml"},
		// An exclude that also matches an included file does not unselect it.
		[]string{"b/*/zz_generated.crd-manifests/*.crd.yaml", "a/v1/zz_generated.crd-manifests/*-OKD.crd.yaml"}))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	changes, _, err := tr.Changes()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Kind.String()+" "+tree.Rel(disc.BaseDir, c.Path))
	}
	sort.Strings(got)
	want := []string{
		"create payload-manifests/crds/0000_10_a-OKD.crd.yaml",
		"delete payload-manifests/crds/0000_99_gone.crd.yaml",
		"update payload-manifests/crds/0000_10_a-Default.crd.yaml",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if data, _ := tr.ReadFile(filepath.Join(res.Dir, "0000_10_a-Default.crd.yaml")); string(data) != "a default\n" {
		t.Errorf("copy holds %q", data)
	}
	if len(res.Untracked) != 1 || len(res.Copied) != 2 {
		t.Errorf("result = %+v", res)
	}
	if !strings.Contains(Untracked("payload-manifests/crds/0000_99_gone.crd.yaml", ".gatedcrd.yaml"), "add its source to payloadCRDs.include in .gatedcrd.yaml") {
		t.Error("untracked message does not say what to do")
	}
}

func TestRunProblems(t *testing.T) {
	cases := []struct {
		name             string
		include, exclude []string
		want             []string
	}{
		{"unselected file", []string{"a/v1/zz_generated.crd-manifests/*.crd.yaml"}, nil, []string{
			`b/v1alpha1/zz_generated.crd-manifests/0000_10_b.crd.yaml: this generated CRD manifest is neither copied to the payload nor excluded; add the line "  - b/v1alpha1/zz_generated.crd-manifests/0000_10_b.crd.yaml" under payloadCRDs.include (to ship it) or payloadCRDs.exclude in .gatedcrd.yaml`,
		}},
		{"glob matching nothing", []string{"*/*/zz_generated.crd-manifests/*.crd.yaml", "a/v2/zz_generated.crd-manifests/*.crd.yaml"}, []string{"c/*/*.yaml"}, []string{
			`.gatedcrd.yaml:11: payloadCRDs.include: "a/v2/zz_generated.crd-manifests/*.crd.yaml" matches no generated CRD manifest`,
			`.gatedcrd.yaml:20: payloadCRDs.exclude: "c/*/*.yaml" matches no generated CRD manifest`,
		}},
		{"doc.go is not a manifest", []string{"*/*/zz_generated.crd-manifests/*.crd.yaml", "a/v1/zz_generated.crd-manifests/doc.go"}, nil, []string{
			`.gatedcrd.yaml:11: payloadCRDs.include: "a/v1/zz_generated.crd-manifests/doc.go" matches no generated CRD manifest`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, tr, res, problems := run(t, config(c.include, c.exclude))
			if res != nil {
				t.Errorf("a result despite problems: %+v", res)
			}
			if len(problems) != len(c.want) {
				t.Fatalf("problems:\n%s", strings.Join(problems, "\n"))
			}
			for i, w := range c.want {
				if !strings.HasPrefix(problems[i], w) {
					t.Errorf("problem %d:\n got %s\nwant %s", i, problems[i], w)
				}
			}
			if changes, _, _ := tr.Changes(); len(changes) > 0 {
				t.Errorf("problems, yet %d change(s) in the tree", len(changes))
			}
		})
	}
}

func TestRunRejectsTwoFilesWithOneBaseName(t *testing.T) {
	disc := fixture(t)
	if err := os.WriteFile(filepath.Join(disc.BaseDir, "b/v1alpha1/zz_generated.crd-manifests/0000_10_a-OKD.crd.yaml"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, problems := Run(Input{Discovery: disc, Tree: tree.New(), Config: config([]string{"*/*/zz_generated.crd-manifests/*.crd.yaml"}, nil), ConfigFile: ".gatedcrd.yaml"})
	if len(problems) != 1 || !strings.Contains(problems[0].String(), "is selected for the payload, but so is a/v1/zz_generated.crd-manifests/0000_10_a-OKD.crd.yaml, and both would be copied to payload-manifests/crds/0000_10_a-OKD.crd.yaml") {
		t.Fatalf("problems = %v", problems)
	}
}

func TestRunWithoutConfigurationDoesNothing(t *testing.T) {
	_, tr, res, problems := run(t, repoconfig.Defaults().PayloadCRDs)
	if res != nil || problems != nil {
		t.Fatalf("got %+v, %v", res, problems)
	}
	if changes, _, _ := tr.Changes(); len(changes) > 0 {
		t.Fatalf("changes: %v", changes)
	}
}
