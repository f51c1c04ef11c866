package corpus

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

var gen = flag.Bool("gen", false, "rewrite testdata/cases from the templates in templates_test.go")

// tmpl describes one case in the tables of templates_test.go.
type tmpl struct {
	// name is "<category>/<case>", the case file's path below testdata/cases.
	name string
	desc string
	// args defaults to defaultArgs.
	args string
	// exit defaults to cli.ExitInput.
	exit    int
	del     []string
	mkdir   []string
	replace []string // "<path>: <old> => <new>"
	inject  []string // "<placeholder>: <line>"
	files   map[string]string
	// want may use {@name} and {@name#N} for "path:line" of the first or
	// N-th line injected at placeholder name, and @@path|text@@ for
	// "path:line" of the first line of the case's tree containing text.
	want []string
	// bug names a known bug that makes a want line fail (see Case.Bug).
	bug string
}

const defaultArgs = "crd-manifests --base-dir $TREE"

var (
	posToken  = regexp.MustCompile(`\{@([a-z-]+)(?:#(\d+))?\}`)
	lineToken = regexp.MustCompile(`@@([^|]+)\|(.+?)@@`)
)

// render turns a template into a case, resolving position tokens against a
// copy of the base tree.
func (tp tmpl) render(t testing.TB) *Case {
	t.Helper()
	c := &Case{Name: tp.name, Comment: strings.Split(tp.desc, "\n"), Exit: tp.exit,
		Delete: tp.del, Mkdir: tp.mkdir, Bug: tp.bug}
	args := tp.args
	if args == "" {
		args = defaultArgs
	}
	var err error
	if c.Args, err = splitArgs(args); err != nil {
		t.Fatalf("%s: %v", tp.name, err)
	}
	if c.Exit == 0 {
		c.Exit = cli.ExitInput
	}
	for _, r := range tp.replace {
		path, rest, _ := strings.Cut(r, ": ")
		old, new, _ := strings.Cut(rest, " => ")
		c.Replace = append(c.Replace, Replacement{Path: path, Old: old, New: new})
	}
	for _, in := range tp.inject {
		name, line, ok := strings.Cut(in, ": ")
		if !ok {
			t.Fatalf("%s: inject %q: want <placeholder>: <line>", tp.name, in)
		}
		c.Inject = append(c.Inject, Injection{Name: name, Line: line})
	}
	var names []string
	for n := range tp.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c.Files = append(c.Files, txtar.File{Name: n, Data: []byte(tp.files[n])})
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(baseDir)); err != nil {
		t.Fatal(err)
	}
	pos, err := c.Apply(dir)
	if err != nil {
		t.Fatalf("%s: %v", tp.name, err)
	}
	for _, w := range tp.want {
		var bad error
		w = posToken.ReplaceAllStringFunc(w, func(tok string) string {
			m := posToken.FindStringSubmatch(tok)
			n := 1
			if m[2] != "" {
				fmt.Sscan(m[2], &n)
			}
			if n > len(pos[m[1]]) {
				bad = fmt.Errorf("%s: %s: nothing injected there", tp.name, tok)
				return tok
			}
			return pos[m[1]][n-1]
		})
		w = lineToken.ReplaceAllStringFunc(w, func(tok string) string {
			m := lineToken.FindStringSubmatch(tok)
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[1])))
			if err != nil {
				bad = fmt.Errorf("%s: %s: %v", tp.name, tok, err)
				return tok
			}
			for i, l := range strings.Split(string(data), "\n") {
				if strings.Contains(l, m[2]) {
					return fmt.Sprintf("%s:%d", m[1], i+1)
				}
			}
			bad = fmt.Errorf("%s: %s: no such line", tp.name, tok)
			return tok
		})
		if bad != nil {
			t.Fatal(bad)
		}
		c.Want = append(c.Want, w)
	}
	// Round-trip through the file format so that what is compared is what
	// the corpus test reads.
	back, err := ParseCase(c.Name, c.Format())
	if err != nil {
		t.Fatalf("%s: %v", tp.name, err)
	}
	return back
}

// generated renders every template to case file bytes by relative path.
func generated(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for _, tp := range templates() {
		rel := tp.name + ".txtar"
		if _, dup := out[rel]; dup {
			t.Fatalf("two templates are named %s", tp.name)
		}
		out[rel] = tp.render(t).Format()
	}
	return out
}

func committed(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	for rel, content := range testtree.Snapshot(t, casesDir) {
		out[rel] = []byte(content)
	}
	return out
}

// TestGenerate rewrites testdata/cases with -gen; without it, it checks that
// the committed case files are exactly what the templates produce.
func TestGenerate(t *testing.T) {
	want := generated(t)
	if *gen {
		if err := os.RemoveAll(casesDir); err != nil {
			t.Fatal(err)
		}
		for rel, data := range want {
			p := filepath.Join(casesDir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("wrote %d case files", len(want))
		return
	}
	have := committed(t)
	for rel, data := range want {
		if h, ok := have[rel]; !ok {
			t.Errorf("%s is missing; run go test ./internal/corpus -run TestGenerate -gen", rel)
		} else if !bytes.Equal(h, data) {
			t.Errorf("%s differs from its template; run go test ./internal/corpus -run TestGenerate -gen", rel)
		}
	}
	for rel := range have {
		if _, ok := want[rel]; !ok {
			t.Errorf("%s has no template; run go test ./internal/corpus -run TestGenerate -gen", rel)
		}
	}
}

// TestCategories reports how many cases each category holds.
func TestCategories(t *testing.T) {
	counts := map[string]int{}
	for _, tp := range templates() {
		cat, _, _ := strings.Cut(tp.name, "/")
		counts[cat]++
	}
	var cats []string
	for c := range counts {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	total := 0
	for _, c := range cats {
		t.Logf("%-28s %3d", c, counts[c])
		total += counts[c]
	}
	t.Logf("%-28s %3d", "total", total)
	if total < 200 {
		t.Errorf("only %d cases, want at least 200", total)
	}
}
