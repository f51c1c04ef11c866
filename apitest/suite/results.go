package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Results remembers the outcome of the tests that runs on one server
// (see Options.Results) gave, pair by pair, so that a later run of a
// pair runs only the tests that changed since (apitest --serve, where an
// author edits one test of a suite and saves). A test's outcome is
// reused when nothing it depends on changed:
//
//   - the test itself: its kind, name and every field as parsed (its
//     objects, expectations and initialCRDPatches; not its line, not
//     comments), see CreateTest.key and UpdateTest.key;
//   - its pair: the suite file's path and suite-level fields (name,
//     crdName, featureGates, version), and the CRD file's path, whole
//     content (metadata and spec) except the description of its schema
//     nodes (see withoutDescriptions), and the version under test, see
//     pairContext;
//   - the server: one Results serves one server (its Kubernetes
//     version); given another, it forgets everything.
//
// The skip list and the --run filter are asked afresh every run, and a
// skipped test's outcome is never kept. A pair whose CRD had objects
// left after its tests (see Installed.settle) is forgotten. The tests of
// a pair not run since its last run (changed, new, or whose outcome was
// not kept) run; the others are reported with their earlier outcome,
// failures included, marked as not run (see ReplayReporter).
type Results struct {
	mu    sync.Mutex
	srv   *server.Server
	pairs map[pairKey]*pairResults
	// unchanged counts the tests reported with an earlier outcome, for
	// Stats.
	unchanged int
}

// NewResults returns a Results that knows no outcome yet.
func NewResults() *Results {
	return &Results{pairs: map[pairKey]*pairResults{}}
}

// pairKey names a (suite, CRD file) pair across runs.
type pairKey struct{ suite, file, version string }

// pairResults are the outcomes of the last run of a pair, by the key of each test.
type pairResults struct {
	context string
	crdName string
	tests   map[string]outcome
}

// outcome is what a test that ran reported.
type outcome struct {
	errors, logs, warnings []string
	// line is the test's line in that run: the errors name lines of the
	// suite file, which move when tests above it change.
	line int
}

// pairRun is one run of a pair: the outcomes it may reuse, and those it
// keeps for the next run.
type pairRun struct {
	results *Results
	key     pairKey
	before  *pairResults // nil when nothing can be reused
	after   *pairResults
}

// begin starts a run of s against v on srv. nil Results gives a run that
// reuses and keeps nothing.
func (res *Results) begin(srv *server.Server, v *Variant, s *Suite) *pairRun {
	if res == nil {
		return nil
	}
	key := pairKey{suite: s.Path, file: v.File.Path, version: v.Version}
	ctx := pairContext(v, s)
	res.mu.Lock()
	defer res.mu.Unlock()
	if res.srv != srv {
		res.srv = srv
		clear(res.pairs)
	}
	run := &pairRun{results: res, key: key, after: &pairResults{context: ctx, crdName: v.CRD.Name, tests: map[string]outcome{}}}
	if before := res.pairs[key]; before != nil && before.context == ctx && ctx != "" {
		run.before = before
	}
	return run
}

// end keeps the outcomes of the run for the next one.
func (run *pairRun) end() {
	if run == nil {
		return
	}
	run.results.mu.Lock()
	defer run.results.mu.Unlock()
	run.results.pairs[run.key] = run.after
}

// forget drops what the runs of the pairs of the variants of a CRD name
// kept.
func (res *Results) forget(name string) {
	if res == nil {
		return
	}
	res.mu.Lock()
	defer res.mu.Unlock()
	for k, p := range res.pairs {
		if p.crdName == name {
			delete(res.pairs, k)
		}
	}
}

// takeUnchanged returns the number of tests reported with an earlier
// outcome since the last call.
func (res *Results) takeUnchanged() int {
	if res == nil {
		return 0
	}
	res.mu.Lock()
	defer res.mu.Unlock()
	n := res.unchanged
	res.unchanged = 0
	return n
}

// ReplayReporter is a Reporter that learns which tests did not run
// because an earlier run's outcome stands (see Options.Results), and
// keeps the API warnings of a test for that.
type ReplayReporter interface {
	Reporter
	// Warnings returns the API warnings the test's requests received.
	Warnings() []string
	// Replayed marks the test as not run: the outcome reported next is
	// an earlier run's, which received these warnings.
	Replayed(warnings []string)
}

// test runs one test of the pair (body) unless its outcome in the last
// run stands, which is then reported again; either way the outcome is
// kept for the next run.
func (run *pairRun) test(r Reporter, s *Suite, key string, line int, body func(Reporter)) {
	if run == nil || key == "" {
		body(r)
		return
	}
	if prev, ok := run.before.outcome(key); ok {
		run.replay(r, s, key, prev, line)
		return
	}
	rec := &recorder{Reporter: r}
	body(rec)
	out := outcome{errors: rec.errors, logs: rec.logs, line: line}
	if w, ok := r.(ReplayReporter); ok {
		out.warnings = w.Warnings()
	}
	run.keep(key, out)
}

func (p *pairResults) outcome(key string) (outcome, bool) {
	if p == nil {
		return outcome{}, false
	}
	out, ok := p.tests[key]
	return out, ok
}

func (run *pairRun) keep(key string, out outcome) {
	run.results.mu.Lock()
	defer run.results.mu.Unlock()
	run.after.tests[key] = out
}

// replay reports an earlier outcome of a test now on line, its errors
// naming the lines they named then, moved as the test moved.
func (run *pairRun) replay(r Reporter, s *Suite, key string, prev outcome, line int) {
	if w, ok := r.(ReplayReporter); ok {
		w.Replayed(prev.warnings)
	}
	for _, msg := range prev.logs {
		r.Logf("%s", msg)
	}
	now := outcome{logs: prev.logs, warnings: prev.warnings, line: line}
	for _, msg := range prev.errors {
		now.errors = append(now.errors, moveLine(msg, s.Path, line-prev.line))
		r.Errorf("%s", now.errors[len(now.errors)-1])
	}
	run.results.mu.Lock()
	defer run.results.mu.Unlock()
	run.after.tests[key] = now
	run.results.unchanged++
}

// moveLine moves the line of a message that starts with "<path>:<line>:"
// by delta.
func moveLine(msg, path string, delta int) string {
	rest, ok := strings.CutPrefix(msg, path+":")
	if !ok || delta == 0 {
		return msg
	}
	digits, tail, ok := strings.Cut(rest, ":")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil {
		return msg
	}
	return diag.Position{File: path, Line: n + delta}.String() + ":" + tail
}

// recorder passes what a test reports on, and keeps its errors and logs.
// A test's function calls it from its own goroutine only.
type recorder struct {
	Reporter
	errors, logs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.Reporter.Errorf("%s", r.errors[len(r.errors)-1])
}

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
	r.Reporter.Logf("%s", r.logs[len(r.logs)-1])
}

// pairContext hashes what every test of a pair depends on beside the
// test itself: the suite-level fields and the CRD file as read, in the
// version under test, without the descriptions of its schemas: a
// doc-comment edit of a Go type changes only those, and no test can
// see it.
func pairContext(v *Variant, s *Suite) string {
	return hashJSON(struct {
		Name, CRDName, Version string
		Gates                  string
		CRD                    *server.CRD
		CRDVersion             string
	}{s.Name, s.CRDName, s.Version, s.GateList(), withoutDescriptions(v.File.CRD), v.Version})
}

// key hashes a create test as parsed, without the lines it was read
// from.
func (t CreateTest) key() string {
	t.Line, t.Initial.Line = 0, 0
	t.Expected = withoutLine(t.Expected)
	return hashJSON(struct {
		Kind string
		Test CreateTest
	}{OnCreate, t})
}

// key hashes an update test as parsed, without the lines it was read
// from.
func (t UpdateTest) key() string {
	t.Line, t.Initial.Line, t.Updated.Line = 0, 0, 0
	t.Expected = withoutLine(t.Expected)
	patches := make([]PatchOperation, len(t.InitialCRDPatches))
	for i, op := range t.InitialCRDPatches {
		op.Line = 0
		patches[i] = op
	}
	t.InitialCRDPatches = patches
	return hashJSON(struct {
		Kind string
		Test UpdateTest
	}{OnUpdate, t})
}

func withoutLine(o *Object) *Object {
	if o == nil {
		return nil
	}
	out := *o
	out.Line = 0
	return &out
}

// hashJSON hashes the JSON encoding of v; "" (nothing to reuse) when it
// has none.
func hashJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		// Every part is JSON-encodable (the objects were decoded from
		// YAML); a failure keeps the outcome from being reused.
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
