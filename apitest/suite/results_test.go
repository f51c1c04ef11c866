package suite

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gatedcrd/gatedcrd/apitest/server"
)

// replayRecorder is a fakeReporter that is a ReplayReporter: it records
// which tests were reported with an earlier outcome instead of running.
type replayRecorder struct {
	*fakeReporter
	replayed *replayedTests
}

type replayedTests struct {
	mu    sync.Mutex
	names map[string]bool
}

func (r replayRecorder) Run(name string, f func(Reporter)) bool {
	return r.fakeReporter.Run(name, func(child Reporter) { f(replayRecorder{child.(*fakeReporter), r.replayed}) })
}

func (r replayRecorder) Warnings() []string { return nil }

func (r replayRecorder) Replayed([]string) {
	r.replayed.mu.Lock()
	defer r.replayed.mu.Unlock()
	r.replayed.names[r.name] = true
}

// TestResultsRunOnlyChangedTests runs the whole tree again and again on
// one server with one Results, editing it in between, and checks that
// each run runs exactly the tests whose outcome may have changed (none
// when nothing changed; the edited test of the edited suite; every test
// of the pairs of an edited CRD file) and reports the others with their
// earlier outcome, failures included, as a run of every test reports
// them, lines moved where the suite file's lines moved.
func TestResultsRunOnlyChangedTests(t *testing.T) {
	srv, err := server.Shared()
	if err != nil {
		t.Fatalf("starting the shared API server: %v", err)
	}
	t.Run("testdata", func(t *testing.T) {
		base := copyTree(t, "testdata/run")
		checkResultsReuse(t, srv, Options{BaseDir: base, PayloadDir: payloadDir},
			filepath.Join(base, "v1/tests/widgets.suite.gatedcrd.example/AAA_ungated.yaml"), "mode: auto", "mode: manual",
			filepath.Join(base, "v1/zz_generated.crd-manifests/widgets-Default.crd.yaml"))
	})
	t.Run("example", func(t *testing.T) {
		base := copyTree(t, "../../example")
		checkResultsReuse(t, srv, Options{BaseDir: base, PayloadDir: "../../payload-manifests/featuregates"},
			filepath.Join(base, "v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml"), "immutableField: foo", "immutableField: bar",
			filepath.Join(base, "v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml"))
	})
}

// checkResultsReuse breaks an expectation of suitePath (the last from
// becomes to), runs the tree, runs it again unchanged, renames the last
// test of suitePath below a new first line and runs it, then describes
// the schema of crdPath (which runs nothing), then gives it a title
// (which runs its pairs) and runs it, each time with Results and, to
// compare, without.
func checkResultsReuse(t *testing.T, srv *server.Server, opts Options, suitePath, from, to, crdPath string) {
	replaceLast(t, suitePath, from, to)
	in := NewInstalled()
	defer func() {
		if err := in.Remove(context.Background(), srv); err != nil {
			t.Errorf("removing the CRDs left installed: %v", err)
		}
	}()
	opts.Server, opts.Installed = srv, in
	results := NewResults()
	suite, err := ParseFile(suitePath, ParseOptions{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	renamed := lastTestName(suite) + " (edited)"
	inSuite := func(name string) bool { return strings.Contains(name, "] "+suite.Name+"/") }
	steps := []struct {
		name string
		edit func()
		runs func(test string) bool // the tests that must run
		// updates tells whether the run updates more installed CRDs
		// than a run of the unchanged tree (whose variants of one name
		// take turns): a CRD whose schema changed only in descriptions
		// stays as it is.
		updates bool
	}{
		{"first run", func() {}, func(string) bool { return true }, false},
		{"unchanged", func() {}, func(string) bool { return false }, false},
		{"one test renamed, lines moved", func() {
			renameLastTest(t, suitePath, suite, renamed)
		}, func(name string) bool { return inSuite(name) && strings.HasSuffix(name, "/"+renamed) }, false},
		{"CRD schema's description changed", func() { addToSchema(t, crdPath, "description: changed by the test") },
			func(string) bool { return false }, false},
		{"CRD file changed", func() { addToSchema(t, crdPath, "title: changed by the test") }, func(name string) bool {
			return strings.Contains(name, "[File="+filepath.Base(crdPath)+"]")
		}, true},
	}
	failedSomewhere := false
	steady := -1 // the CRDs a run of the unchanged tree updates
	for _, step := range steps {
		step.edit()
		plan, err := Prepare(opts)
		if err != nil {
			t.Fatal(err)
		}
		withResults := opts
		withResults.Results, withResults.Stats = results, &Stats{}
		rec := replayRecorder{newFakeReporter(t), &replayedTests{names: map[string]bool{}}}
		RunPlan(rec, plan, withResults)
		got := testOutcomes(rec.rec)
		fresh := newFakeReporter(t)
		RunPlan(fresh, plan, opts)
		want := testOutcomes(fresh.rec)
		for _, name := range slices.Sorted(maps.Keys(want)) {
			if got[name] != want[name] {
				t.Errorf("%s: %s: with Results\n%s\nrunning it\n%s", step.name, name, got[name], want[name])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d outcomes with Results, %d running every test", step.name, len(got), len(want))
		}
		for _, name := range slices.Sorted(maps.Keys(got)) {
			if strings.HasSuffix(name, "/"+OnCreate) || strings.HasSuffix(name, "/"+OnUpdate) {
				continue // a group of tests
			}
			if ran := !rec.replayed.names[name]; ran != step.runs(name) {
				t.Errorf("%s: %s ran: %v, want %v", step.name, name, ran, step.runs(name))
			}
			failedSomewhere = failedSomewhere || strings.HasPrefix(got[name], "failed:")
		}
		switch updated := withResults.Stats.Updated; {
		case steady < 0:
			steady = updated
		case (updated > steady) != step.updates:
			t.Errorf("%s: %d CRDs updated in place, %d in a run of the unchanged tree; want more: %v", step.name, updated, steady, step.updates)
		}
		if withResults.Stats.Unchanged != len(rec.replayed.names) {
			t.Errorf("%s: Stats.Unchanged %d, want %d", step.name, withResults.Stats.Unchanged, len(rec.replayed.names))
		}
	}
	if !failedSomewhere {
		t.Errorf("no test failed: the broken expectation (%q) did not break one", to)
	}
}

// replaceLast replaces the last from in a file by to.
func replaceLast(t *testing.T, path, from, to string) {
	t.Helper()
	data := readFile(t, path)
	i := strings.LastIndex(data, from)
	if i < 0 {
		t.Fatalf("%s has no %q", path, from)
	}
	writeFile(t, path, data[:i]+to+data[i+len(from):])
}

func lastTestName(s *Suite) string {
	if n := len(s.OnUpdate); n > 0 {
		return s.OnUpdate[n-1].Name
	}
	return s.OnCreate[len(s.OnCreate)-1].Name
}

// renameLastTest renames the last test of the suite and adds a comment
// line at the top, which moves every test a line down.
func renameLastTest(t *testing.T, path string, s *Suite, name string) {
	t.Helper()
	last := lastTestName(s)
	data := readFile(t, path)
	i := strings.LastIndex(data, "name: "+last)
	if i < 0 {
		t.Fatalf("%s has no %q", path, "name: "+last)
	}
	writeFile(t, path, "# a line more\n"+data[:i]+"name: "+name+data[i+len("name: "+last):])
}

// addToSchema adds a line (a description, a title) to the top schema of
// a CRD file: a change of its spec that changes no test's outcome.
func addToSchema(t *testing.T, path, line string) {
	t.Helper()
	const field = "openAPIV3Schema:\n"
	data := readFile(t, path)
	i := strings.Index(data, field)
	if i < 0 {
		t.Fatalf("%s has no %q", path, field)
	}
	lineStart := strings.LastIndex(data[:i], "\n") + 1
	indent := strings.Repeat(" ", i-lineStart+2)
	end := i + len(field)
	writeFile(t, path, data[:end]+indent+line+"\n"+data[end:])
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMoveLine checks that a replayed error names the line its test is
// on now, and that other messages are left as they are.
func TestMoveLine(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"v1/tests/x/a.yaml:12: onCreate test \"t\": 1:2 differs", "v1/tests/x/a.yaml:15: onCreate test \"t\": 1:2 differs"},
		{"v1/tests/x/b.yaml:12: other file", "v1/tests/x/b.yaml:12: other file"},
		{"v1/tests/x/a.yaml: no line", "v1/tests/x/a.yaml: no line"},
	} {
		if got := moveLine(c.msg, "v1/tests/x/a.yaml", 3); got != c.want {
			t.Errorf("moveLine(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
