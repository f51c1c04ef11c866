package generator

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gencache"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func module(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range map[string]string{"go.mod": "module example.com/m\n", "a/types.go": "package a\n"} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCachedRunsOncePerKey: the second run with the same inputs and
// options records the first run's files without generating; other
// options or a changed Go file generate again.
func TestCachedRunsOncePerKey(t *testing.T) {
	dir := module(t)
	cache := gencache.Open(t.TempDir())
	out := filepath.Join(dir, "a", "zz_generated.x.go")
	runs := 0
	run := func(options string) *tree.Tree {
		ctx := &Context{Discovery: &discovery.Result{ModuleDir: dir}, Tree: tree.New(), Problems: &diag.List{}, Cache: cache}
		err := ctx.Cached("x", options, nil, func(t *tree.Tree) error {
			runs++
			t.Put(out, []byte("package a // "+options+"\n"))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ctx.Tree
	}
	for i, step := range []struct {
		options string
		edit    bool
		runs    int
	}{{"o", false, 1}, {"o", false, 1}, {"p", false, 2}, {"o", true, 3}, {"o", false, 3}} {
		if step.edit {
			if err := os.WriteFile(filepath.Join(dir, "a", "types.go"), []byte("package a\n\n// edited\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := run(step.options).ReadFile(out)
		if err != nil || string(got) != "package a // "+step.options+"\n" {
			t.Errorf("step %d: recorded %q, %v", i, got, err)
		}
		if runs != step.runs {
			t.Errorf("step %d: %d generation(s), want %d", i, runs, step.runs)
		}
	}
}

// TestRunReportsEveryGenerator: a failing generator does not stop the
// ones after it, and every error names its generator.
func TestRunReportsEveryGenerator(t *testing.T) {
	var ran []string
	gen := func(name string, err error) Generator {
		return fake{name: name, fn: func() error { ran = append(ran, name); return err }}
	}
	err := Run(&Context{}, gen("a", errors.New("broken")), gen("b", nil), gen("c", errors.New("also broken")))
	if strings.Join(ran, ",") != "a,b,c" {
		t.Errorf("ran %v", ran)
	}
	if err == nil || !strings.Contains(err.Error(), "a: broken") || !strings.Contains(err.Error(), "c: also broken") {
		t.Errorf("error %v", err)
	}
}

type fake struct {
	name string
	fn   func() error
}

func (f fake) Name() string            { return f.name }
func (f fake) Generate(*Context) error { return f.fn() }
