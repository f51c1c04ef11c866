package corpus

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

var show = flag.Bool("show", false, "log every case's exit status and stderr (with -v), to review messages")

const (
	baseDir  = "testdata/base"
	casesDir = "testdata/cases"
)

// loadCases reads every case file below testdata/cases.
func loadCases(t testing.TB) []*Case {
	t.Helper()
	var cases []*Case
	err := filepath.WalkDir(casesDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".txtar") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(casesDir, p)
		c, err := ParseCase(strings.TrimSuffix(filepath.ToSlash(rel), ".txtar"), data)
		if err != nil {
			return err
		}
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	return cases
}

// codegen runs the command in-process. A panic is caught and returned with
// its stack, so one broken case cannot take the others down.
func codegen(args []string) (code int, stderr string, panicked string) {
	var out, errOut bytes.Buffer
	func() {
		defer func() {
			if r := recover(); r != nil {
				panicked = fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
		}()
		code = cli.Run("corpus", args, &out, &errOut)
	}()
	return code, errOut.String(), panicked
}

// snapshot records every file (path → content) and directory (path + "/")
// below dir.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		if !d.Type().IsRegular() {
			out[rel] = "(" + d.Type().String() + ")"
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compareSnapshots names every path that appeared, vanished or changed.
func compareSnapshots(before, after map[string]string) []string {
	var diffs []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			diffs = append(diffs, "removed "+p)
		case a != b:
			diffs = append(diffs, "changed "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "created "+p)
		}
	}
	sort.Strings(diffs)
	return diffs
}

func expand(s, tree string) string { return strings.ReplaceAll(s, "$TREE", tree) }

// TestBaseTreeIsValid proves the base tree is a valid, up-to-date input: a
// run writes nothing and every --verify passes. Every case therefore fails
// because of its own edit.
func TestBaseTreeIsValid(t *testing.T) {
	t.Parallel()
	dir := testtree.Copy(t, baseDir)
	before := snapshot(t, dir)
	code, stderr, panicked := codegen([]string{"crd-manifests", "--base-dir", dir})
	if panicked != "" {
		t.Fatalf("panic: %s", panicked)
	}
	if code != cli.ExitOK || !strings.Contains(stderr, " 0 file(s) written, ") {
		t.Fatalf("crd-manifests on the base tree: exit %d, want 0 and nothing written:\n%s", code, stderr)
	}
	if strings.Contains(stderr, "warning:") {
		t.Errorf("the base tree draws warnings:\n%s", stderr)
	}
	for _, sub := range []string{"crd-manifests", "empty-partial-schemas", "schemapatch", "crd-manifest-merge"} {
		if code, stderr, panicked := codegen([]string{sub, "--base-dir", dir, "--verify"}); code != cli.ExitOK || panicked != "" {
			t.Errorf("%s --verify on the base tree: exit %d\n%s%s", sub, code, stderr, panicked)
		}
	}
	if d := compareSnapshots(before, snapshot(t, dir)); len(d) > 0 {
		t.Errorf("runs on the base tree changed it: %s", strings.Join(d, ", "))
	}
}

// fileMention matches a path of the tree in a message; goFileNoLine a Go
// file named without a line.
var (
	fileMention  = regexp.MustCompile(`(\$TREE|[\w.-]+/[\w.+-]+|\.codegen\.yaml|\.gatedcrd\.yaml|^error: \.: )`)
	goFileNoLine = regexp.MustCompile(`\.go(: |$)`)
)

// TestCorpus runs every case on its own copy of the base tree, in parallel.
func TestCorpus(t *testing.T) {
	cases := loadCases(t)
	if len(cases) == 0 {
		t.Fatal("no cases found in " + casesDir)
	}
	start := time.Now()
	t.Cleanup(func() {
		t.Logf("%d cases in %s", len(cases), time.Since(start).Round(time.Millisecond))
	})
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			runCase(t, c)
		})
	}
}

func runCase(t *testing.T, c *Case) {
	if c.Exit != cli.ExitUsage {
		// Messages about the input must say where the problem is; those
		// about a flag name the flag.
		named := false
		for _, w := range c.Want {
			named = named || fileMention.MatchString(w) || strings.Contains(w, "--")
		}
		if !named {
			t.Errorf("no want: line names a file of the tree")
		}
	}
	for _, w := range c.Want {
		// Go sources need a line; a missing doc.go or a generated doc.go
		// does not have one.
		if goFileNoLine.MatchString(w) && !strings.Contains(w, "+groupName: missing") && !strings.Contains(w, "zz_generated.crd-manifests/doc.go") {
			t.Errorf("want %q names a Go file without a line", w)
		}
	}
	dir := testtree.Copy(t, baseDir)
	if _, err := c.Apply(dir); err != nil {
		t.Fatalf("applying the case: %v", err)
	}
	before := snapshot(t, dir)
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = expand(a, dir)
	}
	code, stderr, panicked := codegen(args)
	if panicked != "" {
		t.Fatalf("codegen %s panicked: %s", strings.Join(c.Args, " "), panicked)
	}
	shown := strings.ReplaceAll(stderr, dir, "$TREE")
	if *show {
		t.Logf("exit %d\n%s", code, shown)
	}
	if code == cli.ExitOK {
		t.Errorf("exit 0, want %d:\n%s", c.Exit, shown)
	} else if code != c.Exit {
		t.Errorf("exit %d, want %d:\n%s", code, c.Exit, shown)
	}
	var missing []string
	for _, w := range c.Want {
		if !strings.Contains(stderr, expand(w, dir)) {
			missing = append(missing, w)
		}
	}
	switch {
	case c.Bug != "" && len(missing) == 0:
		t.Errorf("the known bug (%s) is fixed: drop the bug: line of the case", c.Bug)
	case c.Bug != "":
		t.Logf("known bug: %s; stderr lacks %q:\n%s", c.Bug, missing, shown)
	default:
		for _, w := range missing {
			t.Errorf("stderr lacks %q:\n%s", w, shown)
		}
	}
	if d := compareSnapshots(before, snapshot(t, dir)); len(d) > 0 {
		t.Errorf("the failed run changed the tree: %s", strings.Join(d, ", "))
	}
}
