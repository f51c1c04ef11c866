package compatlevel

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

const (
	l1 = "// Compatibility level 1: Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).\n"
	l2 = "// Compatibility level 2: Stable within a major release for a minimum of 9 months or 3 minor releases (whichever is longer).\n"
	l4 = "// Compatibility level 4: No compatibility is provided, the API can change at any point for any reason. These capabilities should not be used by applications needing long term support.\n"
)

// runOn runs the generator on one file in a version directory and
// returns the file's new content ("" when unchanged) and the problems.
func runOn(t *testing.T, version, src string, cfg repoconfig.Compatibility) (string, []string) {
	t.Helper()
	dir := testtree.Write(t, map[string]string{
		"g/" + version + "/types.go":      src,
		"g/" + version + "/types_test.go": "package v\n\ntype T struct{ metav1.TypeMeta }\n",
	})
	disc := &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{{Name: "g.example.com", Dir: filepath.Join(dir, "g"),
		Versions: []*discovery.Version{{Group: "g.example.com", Version: version, Dir: filepath.Join(dir, "g", version), ImportPath: "x/g/" + version}}}}}
	tr := tree.New()
	res, problems := Run(Input{Discovery: disc, Tree: tr, Config: cfg, ConfigFile: filepath.Join(dir, ".gatedcrd.yaml")})
	var msgs []string
	for _, p := range problems {
		p.File = tree.Rel(dir, p.File)
		msgs = append(msgs, p.String())
	}
	if res == nil {
		return "", msgs
	}
	out, ok := res.Sources[filepath.Join(dir, "g", version, "types.go")]
	if !ok {
		return "", msgs
	}
	// Running again on the output changes nothing.
	again, _ := runOnAgain(t, disc, tr, cfg)
	if again {
		t.Errorf("a second run changes the output again")
	}
	return string(out), msgs
}

func runOnAgain(t *testing.T, disc *discovery.Result, tr *tree.Tree, cfg repoconfig.Compatibility) (bool, []diag.Diagnostic) {
	res, problems := Run(Input{Discovery: disc, Tree: tr, Config: cfg})
	return res != nil && len(res.Sources) > 0, problems
}

const head = "package v\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n"

func TestEdits(t *testing.T) {
	cases := []struct{ name, version, in, want string }{
		{"before the first marker, after an empty line",
			"v1",
			head + "// W is a widget.\n// +openshift:compatibility-gen:level=1\n// +kubebuilder:object:root=true\ntype W struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n}\n",
			head + "// W is a widget.\n//\n" + l1 + "// +openshift:compatibility-gen:level=1\n// +kubebuilder:object:root=true\ntype W struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n}\n"},
		{"prose already separated",
			"v1beta1",
			head + "// W is a widget.\n//\n// +openshift:compatibility-gen:level=2\ntype W struct{ metav1.TypeMeta }\n",
			head + "// W is a widget.\n//\n" + l2 + "// +openshift:compatibility-gen:level=2\ntype W struct{ metav1.TypeMeta }\n"},
		{"markers only",
			"v1alpha1",
			head + "// +openshift:compatibility-gen:level=4\ntype W struct{ metav1.TypeMeta }\n",
			head + l4 + "// +openshift:compatibility-gen:level=4\ntype W struct{ metav1.TypeMeta }\n"},
		{"markers in the detached block, prose only in the doc",
			"v1",
			head + "// +openshift:compatibility-gen:level=1\n\n// W is a widget.\ntype W struct{ metav1.TypeMeta }\n",
			head + "// +openshift:compatibility-gen:level=1\n\n// W is a widget.\n//\n" + strings.TrimSuffix(l1, "\n") + "\ntype W struct{ metav1.TypeMeta }\n"},
		{"no doc comment at all",
			"v1",
			head + "// +openshift:compatibility-gen:level=1\n\ntype W struct{ metav1.TypeMeta }\n",
			head + "// +openshift:compatibility-gen:level=1\n\n" + l1 + "type W struct{ metav1.TypeMeta }\n"},
		{"a stale line is replaced in place",
			"v1",
			head + "// W is a widget.\n" + l4 + "// +openshift:compatibility-gen:level=1\ntype W struct{ metav1.TypeMeta }\n",
			head + "// W is a widget.\n" + l1 + "// +openshift:compatibility-gen:level=1\ntype W struct{ metav1.TypeMeta }\n"},
		{"a second line is dropped",
			"v1",
			head + "// W is a widget.\n//\n" + l1 + "// +openshift:compatibility-gen:level=1\n" + l1 + "type W struct{ metav1.TypeMeta }\n",
			head + "// W is a widget.\n//\n" + l1 + "// +openshift:compatibility-gen:level=1\ntype W struct{ metav1.TypeMeta }\n"},
		{"inside a parenthesised declaration",
			"v1",
			head + "type (\n\t// W is a widget.\n\t// +openshift:compatibility-gen:level=1\n\tW struct{ metav1.TypeMeta }\n)\n",
			head + "type (\n\t// W is a widget.\n\t//\n\t" + l1 + "\t// +openshift:compatibility-gen:level=1\n\tW struct{ metav1.TypeMeta }\n)\n"},
		{"internal type in an unusual version",
			"docker10",
			head + "// D is internal.\n// +openshift:compatibility-gen:internal\ntype D struct{ TypeMeta }\n",
			head + "// D is internal.\n//\n" + l4 + "// +openshift:compatibility-gen:internal\ntype D struct{ TypeMeta }\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, problems := runOn(t, c.version, c.in, repoconfig.Compatibility{})
			if len(problems) > 0 {
				t.Fatal(problems)
			}
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestUnchanged(t *testing.T) {
	for _, src := range []string{
		head + "// W is a widget.\n//\n" + l1 + "// +openshift:compatibility-gen:level=1\ntype W struct{ metav1.TypeMeta }\n",
		// Types without TypeMeta need no marker.
		head + "// S is a spec.\ntype S struct{ Name string }\n\ntype A = S\n\ntype N S\n",
	} {
		got, problems := runOn(t, "v1", src, repoconfig.Compatibility{})
		if got != "" || len(problems) > 0 {
			t.Errorf("changed %q into %q, problems %v", src, got, problems)
		}
	}
}

func TestLevelRules(t *testing.T) {
	typ := func(markers ...string) string {
		return head + "// W is a widget.\n// " + strings.Join(markers, "\n// ") + "\ntype W struct{ metav1.TypeMeta }\n"
	}
	exception := repoconfig.Compatibility{Exceptions: []repoconfig.Pattern{{Glob: "g/v1.W", Line: 3}}}
	cases := []struct {
		name, version, src string
		cfg                repoconfig.Compatibility
		want               string // "" = accepted
	}{
		{"GA level 1", "v1", typ("+openshift:compatibility-gen:level=1"), repoconfig.Compatibility{}, ""},
		{"GA level 2", "v1", typ("+openshift:compatibility-gen:level=2"), repoconfig.Compatibility{},
			"g/v1/types.go:6: type W: level 2 is not allowed in a GA version like v1, which requires level 1; a historic GA type that must keep it needs an entry in compatibility.exceptions of .gatedcrd.yaml"},
		{"GA level 2, exception", "v1", typ("+openshift:compatibility-gen:level=2"), exception, ""},
		{"GA level 4, exception", "v1", typ("+openshift:compatibility-gen:level=4"), exception, ""},
		{"GA level 3, exception", "v1", typ("+openshift:compatibility-gen:level=3"), exception,
			"g/v1/types.go:6: type W: level 3 is not allowed in a GA version like v1, which requires level 1"},
		{"beta level 2", "v2beta3", typ("+openshift:compatibility-gen:level=2"), repoconfig.Compatibility{}, ""},
		{"beta level 1", "v1beta1", typ("+openshift:compatibility-gen:level=1"), repoconfig.Compatibility{},
			"g/v1beta1/types.go:6: type W: level 1 is not allowed in a beta version like v1beta1, which requires level 2"},
		{"alpha level 4", "v1alpha1", typ("+openshift:compatibility-gen:level=4"), repoconfig.Compatibility{}, ""},
		{"alpha level 2", "v1alpha1", typ("+openshift:compatibility-gen:level=2"), repoconfig.Compatibility{},
			"type W: level 2 is not allowed in an alpha version like v1alpha1, which requires level 4"},
		{"missing", "v1alpha1", typ("+kubebuilder:object:root=true"), repoconfig.Compatibility{},
			"g/v1alpha1/types.go:7: type W: has no compatibility level: add +openshift:compatibility-gen:level=4 (the level of an alpha version such as v1alpha1) or +openshift:compatibility-gen:internal"},
		{"internal", "v1", typ("+openshift:compatibility-gen:internal"), repoconfig.Compatibility{}, ""},
		{"internal level 4", "v1", typ("+openshift:compatibility-gen:level=4", "+openshift:compatibility-gen:internal"), repoconfig.Compatibility{}, ""},
		{"internal level 1", "v1", typ("+openshift:compatibility-gen:level=1", "+openshift:compatibility-gen:internal"), repoconfig.Compatibility{},
			"type W: internal types use level 4, not 1"},
		{"other version, not internal", "pre012", typ("+openshift:compatibility-gen:level=4"), repoconfig.Compatibility{},
			`type W: version "pre012" is neither GA (v1), beta (v1beta1) nor alpha (v1alpha1), so its types must be internal: add +openshift:compatibility-gen:internal`},
		{"level out of range", "v1", typ("+openshift:compatibility-gen:level=5"), repoconfig.Compatibility{},
			"g/v1/types.go:6: +openshift:compatibility-gen:level=5: the level must be 1, 2, 3 or 4"},
		{"level not a number", "v1", typ("+openshift:compatibility-gen:level=one"), repoconfig.Compatibility{},
			"+openshift:compatibility-gen:level=one: the level must be 1, 2, 3 or 4"},
		{"level without value", "v1", typ("+openshift:compatibility-gen:level"), repoconfig.Compatibility{},
			"+openshift:compatibility-gen:level: needs a value: write +openshift:compatibility-gen:level=<1..4>"},
		{"two levels", "v1", typ("+openshift:compatibility-gen:level=1", "+openshift:compatibility-gen:level=2"), repoconfig.Compatibility{},
			"g/v1/types.go:7: +openshift:compatibility-gen:level=2: contradicts +openshift:compatibility-gen:level=1 on line 6"},
		{"unused exception", "v1", typ("+openshift:compatibility-gen:level=1"), repoconfig.Compatibility{Exceptions: []repoconfig.Pattern{{Glob: "g/v2.*", Line: 4}}},
			`.gatedcrd.yaml:4: compatibility.exceptions: "g/v2.*" matches no type that embeds TypeMeta`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems := runOn(t, c.version, c.src, c.cfg)
			got := strings.Join(problems, "\n")
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("problems:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestPartialRunDoesNotReportUnusedExceptions(t *testing.T) {
	disc := &discovery.Result{BaseDir: t.TempDir()}
	res, problems := Run(Input{Discovery: disc, Tree: tree.New(), Partial: true,
		Config: repoconfig.Compatibility{Exceptions: []repoconfig.Pattern{{Glob: "g/v2.*", Line: 4}}}})
	if res == nil || len(problems) > 0 {
		t.Fatalf("got %v, %v", res, problems)
	}
}

func TestProblemsWriteNothing(t *testing.T) {
	src := head + "// W is a widget.\n// +openshift:compatibility-gen:level=1\ntype W struct{ metav1.TypeMeta }\n\n// V lacks a level.\ntype V struct{ metav1.TypeMeta }\n"
	got, problems := runOn(t, "v1", src, repoconfig.Compatibility{})
	if got != "" || len(problems) != 1 {
		t.Fatalf("got %q, %v", got, problems)
	}
}

func TestDisabledGroupIsSkipped(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"g/v1/types.go": head + "type W struct{ metav1.TypeMeta }\n"})
	disc := &discovery.Result{BaseDir: dir, Groups: []*discovery.Group{{Name: "g.example.com", Dir: filepath.Join(dir, "g"),
		Config:   discovery.Config{Compatibility: discovery.StageConfig{Disabled: true}},
		Versions: []*discovery.Version{{Group: "g.example.com", Version: "v1", Dir: filepath.Join(dir, "g", "v1"), ImportPath: "x/g/v1"}}}}}
	res, problems := Run(Input{Discovery: disc, Tree: tree.New()})
	if res == nil || res.Types != 0 || len(problems) > 0 {
		t.Fatalf("got %+v, %v", res, problems)
	}
}
