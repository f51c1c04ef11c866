package suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
)

func TestMain(m *testing.M) { os.Exit(server.RunTests(m)) }

// fakeReporter records what the runner reports instead of failing the
// test that runs it.
type fakeReporter struct {
	name   string
	ctx    context.Context
	parent *fakeReporter
	rec    *record
	failed bool
}

type record struct {
	mu      sync.Mutex
	tests   []string   // every subtest, by full name, in the order run
	errors  []reported // every error, in the order reported
	skipped []reported // every skipped test and the reason
}

type reported struct {
	test, msg string
}

func newFakeReporter(t *testing.T) *fakeReporter {
	return &fakeReporter{name: "Run", ctx: t.Context(), rec: &record{}}
}

func (r *fakeReporter) Helper() {}

func (r *fakeReporter) Errorf(format string, args ...any) {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	r.rec.errors = append(r.rec.errors, reported{test: r.name, msg: fmt.Sprintf(format, args...)})
	for p := r; p != nil; p = p.parent {
		p.failed = true
	}
}

func (r *fakeReporter) Logf(string, ...any) {}

func (r *fakeReporter) Skipf(format string, args ...any) {
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	r.rec.skipped = append(r.rec.skipped, reported{test: r.name, msg: fmt.Sprintf(format, args...)})
}

func (r *fakeReporter) Run(name string, f func(Reporter)) bool {
	child := &fakeReporter{name: r.name + "/" + name, ctx: r.ctx, parent: r, rec: r.rec}
	r.rec.mu.Lock()
	r.rec.tests = append(r.rec.tests, child.name)
	r.rec.mu.Unlock()
	f(child)
	r.rec.mu.Lock()
	defer r.rec.mu.Unlock()
	return !child.failed
}

func (r *fakeReporter) Context() context.Context { return r.ctx }

// copyTree copies a directory of test data into a temporary directory.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

const (
	widgetsDir = "v1/tests/widgets.suite.gatedcrd.example"
	payloadDir = "testdata/payload"
)

// replace applies old/new pairs to text, each of which must occur once.
func replace(t *testing.T, text string, pairs ...string) string {
	t.Helper()
	for i := 0; i+1 < len(pairs); i += 2 {
		if n := strings.Count(text, pairs[i]); n != 1 {
			t.Fatalf("%q occurs %d times, want once", pairs[i], n)
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return text
}

// lineOf returns the line number of the first line containing want after
// the first line containing after.
func lineOf(t *testing.T, text, after, want string) int {
	t.Helper()
	lines := strings.Split(text, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, after) })
	if start < 0 {
		t.Fatalf("no line contains %q", after)
	}
	for i := start; i < len(lines); i++ {
		if strings.Contains(lines[i], want) {
			return i + 1
		}
	}
	t.Fatalf("no line after %q contains %q", after, want)
	return 0
}

func TestPrepareReportsBrokenSuitesAndKeepsTheOthers(t *testing.T) {
	base := copyTree(t, "testdata/run")
	bad := filepath.Join(base, widgetsDir, "Bad.yaml")
	if err := os.WriteFile(bad, []byte("crdName: widgets.suite.gatedcrd.example\nfeatureGate:\n- Fancy\ntests:\n  onCreate:\n  - name: x\n    initial: 'kind: Widget'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := Prepare(Options{BaseDir: base, PayloadDir: payloadDir, Strict: true})
	if err == nil || !strings.Contains(err.Error(), bad+`:2: unknown field "featureGate" in the suite; did you mean "featureGates"?`) {
		t.Errorf("error %v, want one naming %s:2 and the unknown field", err, bad)
	}
	var got []string
	for _, batch := range plan.Batches {
		for _, v := range batch {
			for _, s := range v.Suites {
				got = append(got, filepath.Base(v.File.Path)+" "+filepath.Base(s.Path))
			}
		}
	}
	want := []string{
		"widgets-Default.crd.yaml -Fancy.yaml",
		"widgets-Default.crd.yaml AAA_ungated.yaml",
		"widgets-TechPreviewNoUpgrade.crd.yaml AAA_ungated.yaml",
		"widgets-TechPreviewNoUpgrade.crd.yaml Fancy.yaml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("plan\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPrepareErrors(t *testing.T) {
	if _, err := Prepare(Options{BaseDir: "testdata/run"}); err == nil {
		t.Errorf("no error without a payload directory")
	}
	if _, err := Prepare(Options{BaseDir: "testdata/payload", PayloadDir: payloadDir}); err == nil || !strings.Contains(err.Error(), "no suite below testdata/payload") {
		t.Errorf("error %v, want one saying no suite was found", err)
	}
	base := copyTree(t, "testdata/run")
	if err := os.Remove(filepath.Join(base, "v1/zz_generated.crd-manifests/widgets-TechPreviewNoUpgrade.crd.yaml")); err != nil {
		t.Fatal(err)
	}
	plan, err := Prepare(Options{BaseDir: base, PayloadDir: payloadDir})
	wantErr := filepath.Join(base, widgetsDir, "Fancy.yaml") + ":3: the suite (featureGates Fancy) runs against none of the 1 CRD files"
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		t.Errorf("error %v, want one containing %q", err, wantErr)
	}
	if plan.Suites() != 2 {
		t.Errorf("the plan has %d suites, want the 2 that match", plan.Suites())
	}
}

// TestRun runs the test data's suites against the real server together
// with a copy of one whose expectations were changed, and checks that the
// original passes on every variant while each changed expectation fails
// with a message naming the suite file and line, the test and the CRD
// file.
func TestRun(t *testing.T) {
	srv, err := server.Shared()
	if err != nil {
		t.Fatalf("starting the shared API server: %v", err)
	}
	base := copyTree(t, "testdata/run")
	original, err := os.ReadFile(filepath.Join(base, widgetsDir, "AAA_ungated.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := replace(t, string(original),
		"name: Widgets\n", "name: Broken widgets\n",
		// A changed expected value.
		"        mode: auto\n        size: 2\n", "        mode: auto\n        size: 3\n",
		// A changed expectedError.
		`expectedError: "spec.size: Invalid value: 11:`, `expectedError: "spec.size: Invalid value: 12:`,
		// An update that should fail but no longer does.
		"        immutable: b\n", "        immutable: a\n",
		// A changed expected status.
		"        mode: auto\n        size: 3\n      status:\n        phase: Pending\n        ready: 1\n", "        mode: auto\n        size: 3\n      status:\n        phase: Pending\n        ready: 2\n",
		// A changed expectedStatusError.
		`expectedStatusError: "status.phase: Invalid value: \"Ready\": phase is immutable"`, `expectedStatusError: "phase must stay"`,
	)
	brokenPath := filepath.Join(base, widgetsDir, "Broken.yaml")
	if err := os.WriteFile(brokenPath, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}

	r := newFakeReporter(t)
	skip := func(s *Suite, kind, test string) string {
		if s.Name == "Widgets" && kind == OnCreate && test == "Should reject a size above 10" {
			return "skipped by the test"
		}
		return ""
	}
	RunWith(r, Options{BaseDir: base, PayloadDir: payloadDir, Server: srv, Skip: skip})

	group := func(featureSet, gates, name string) string {
		return fmt.Sprintf(`Run/[suite.gatedcrd.example/v1, Resource=widgets][ClusterProfiles=SelfManagedHA][FeatureSet=%q][FeatureGate=%s][File=widgets-%s.crd.yaml] %s`,
			featureSet, gates, featureSet, name)
	}
	var groups []string
	for _, name := range r.rec.tests {
		if strings.Count(name, "/") == strings.Count(group("", "", ""), "/") {
			groups = append(groups, name)
		}
	}
	wantGroups := []string{
		group("Default", "-Fancy", "Widgets without Fancy"),
		group("Default", "", "Widgets"),
		group("Default", "", "Broken widgets"),
		group("TechPreviewNoUpgrade", "", "Widgets"),
		group("TechPreviewNoUpgrade", "", "Broken widgets"),
		group("TechPreviewNoUpgrade", "Fancy", "Widgets with Fancy"),
	}
	if !slices.Equal(groups, wantGroups) {
		t.Errorf("test groups\n%s\nwant\n%s", strings.Join(groups, "\n"), strings.Join(wantGroups, "\n"))
	}
	if want := group("Default", "", "Widgets") + "/onUpdate/Should set the status through the status subresource"; !slices.Contains(r.rec.tests, want) {
		t.Errorf("no test %q among\n%s", want, strings.Join(r.rec.tests, "\n"))
	}

	wantSkipped := []reported{
		{group("Default", "", "Widgets") + "/onCreate/Should reject a size above 10", "skipped by the test"},
		{group("TechPreviewNoUpgrade", "", "Widgets") + "/onCreate/Should reject a size above 10", "skipped by the test"},
	}
	slices.SortFunc(r.rec.skipped, func(a, b reported) int { return strings.Compare(a.test, b.test) })
	if !slices.Equal(r.rec.skipped, wantSkipped) {
		t.Errorf("skipped %v, want %v", r.rec.skipped, wantSkipped)
	}

	type failure struct {
		test string
		line int
		has  []string
	}
	var want []failure
	for _, fs := range []string{"Default", "TechPreviewNoUpgrade"} {
		prefix := group(fs, "", "Broken widgets")
		want = append(want,
			failure{prefix + "/onCreate/Should default mode", lineOf(t, broken, "Should default mode", "expected: |"),
				[]string{`onCreate test "Should default mode"`, "the persisted object differs from expected:", "\t-   size: 3", "\t+   size: 2", "\t    mode: auto"}},
			failure{prefix + "/onCreate/Should reject a size above 10", lineOf(t, broken, "Should reject a size above 10", "name:"),
				[]string{`onCreate test "Should reject a size above 10"`, "the create failed with", "spec.size: Invalid value: 11:", "want an error containing\n\tspec.size: Invalid value: 12:"}},
			failure{prefix + "/onUpdate/Should not allow changing immutable", lineOf(t, broken, "Should not allow changing immutable", "name:"),
				[]string{`onUpdate test "Should not allow changing immutable"`, "the update succeeded, want an error containing\n\tspec.immutable: Invalid value", "\nthe persisted object is:\n", "\t  immutable: a"}},
			failure{prefix + "/onUpdate/Should set the status through the status subresource", lineOf(t, broken, "Should set the status", "expected: |"),
				[]string{`onUpdate test "Should set the status through the status subresource"`, "\t-   ready: 2", "\t+   ready: 1"}},
			failure{prefix + "/onUpdate/Should not allow changing the phase", lineOf(t, broken, "Should not allow changing the phase", "name:"),
				[]string{`onUpdate test "Should not allow changing the phase"`, "the status update failed with", "phase is immutable", "want an error containing\n\tphase must stay"}},
		)
	}
	var got []string
	for _, e := range r.rec.errors {
		got = append(got, e.test+": "+e.msg)
	}
	if len(r.rec.errors) != len(want) {
		t.Errorf("%d errors, want %d:\n%s", len(r.rec.errors), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if i >= len(r.rec.errors) {
			break
		}
		e := r.rec.errors[i]
		if e.test != w.test {
			t.Errorf("error %d reported by\n%s\nwant\n%s", i, e.test, w.test)
		}
		crdFile := filepath.Join(base, "v1", "zz_generated.crd-manifests", "widgets-Default.crd.yaml")
		if strings.Contains(w.test, "TechPreviewNoUpgrade") {
			crdFile = strings.Replace(crdFile, "Default", "TechPreviewNoUpgrade", 1)
		}
		start := fmt.Sprintf("%s:%d: ", brokenPath, w.line)
		if !strings.HasPrefix(e.msg, start) || !strings.Contains(e.msg, " against "+crdFile+": ") {
			t.Errorf("error %d\n%s\nshould start with %s and name the CRD file %s", i, e.msg, start, crdFile)
		}
		for _, has := range w.has {
			if !strings.Contains(e.msg, has) {
				t.Errorf("error %d\n%s\ndoes not contain %q", i, e.msg, has)
			}
		}
	}
}
