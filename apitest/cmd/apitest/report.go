package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/suite"
)

// report is the command's suite.Reporter: it counts tests, prints
// progress as each (suite, CRD file) pair finishes, and keeps the results
// for the JUnit file and, in a run on several Kubernetes versions, the
// closing table. A test is a subtest without subtests.
type report struct {
	ctx     context.Context
	out     io.Writer
	verbose bool
	// matrix labels every pair with its Kubernetes version (a run on
	// several versions); a run on one version prints what it always did.
	matrix  bool
	baseDir string // suite files are shown relative to it in the table

	mu       sync.Mutex // guards everything below and every node's state
	passed   int
	failed   int
	skipped  int
	warnings int               // API warnings received, all versions
	problems []string          // errors outside any pair: broken suites, servers that did not start
	groups   []*groupResult    // finished pairs, in the order they finished
	loose    []string          // warnings received outside any test (shown with -v)
	byKube   map[string]*tally // per Kubernetes version
	// bySuite counts per suite file (relative to baseDir) and version.
	bySuite map[string]map[string]*tally
}

// tally counts the tests of one cell of the closing table.
type tally struct{ passed, failed, skipped int }

func (t *tally) add(failed bool, skipped string) {
	switch {
	case failed:
		t.failed++
	case skipped != "":
		t.skipped++
	default:
		t.passed++
	}
}

// groupResult is one finished (suite, CRD file) pair.
type groupResult struct {
	name      string
	version   string // the Kubernetes version it ran on
	suitePath string // the suite file, relative to --base-dir; "" when unknown
	duration  time.Duration
	errors    []string // reported on the pair itself, e.g. a failed install
	warnings  []string // received by the pair itself, outside its tests
	tests     []testResult
}

// label is the name the pair is shown under: in a matrix run, its
// version first.
func (g *groupResult) label(matrix bool) string {
	if matrix {
		return g.version + " " + g.name
	}
	return g.name
}

// testResult is one finished test.
type testResult struct {
	name     string // below its pair: "onCreate/<test name>"
	duration time.Duration
	errors   []string
	logs     []string
	warnings []string // the API server's warnings on the test's requests
	skipped  string   // the reason, when skipped
	// unchanged says the test did not run: its outcome is that of its
	// last run (suite.Results).
	unchanged bool
}

// node is one level of the test tree: a root (depth 0: the run, or one
// Kubernetes version of it), a pair (depth 1), onCreate/onUpdate (2) or
// a test (3).
type node struct {
	rep      *report
	parent   *node
	ctx      context.Context // carries the node, for the warning handler
	name     string          // relative to the pair; the pair's full name at depth 1
	version  string          // the Kubernetes version; "" for the run's root
	depth    int
	start    time.Time
	failed   bool
	children bool
	errors   []string
	logs     []string
	warnings []string
	skipped  string       // why the test was skipped; "" when it ran
	group    *groupResult // the pair this node belongs to (depth >= 1)
	// unchanged: the test did not run, its outcome is its last run's.
	unchanged bool
}

// nodeKey is the context key of the node a request is made for.
type nodeKey struct{}

func newReport(ctx context.Context, out io.Writer, verbose bool) (*report, *node) {
	r := &report{ctx: ctx, out: out, verbose: verbose, byKube: map[string]*tally{}, bySuite: map[string]map[string]*tally{}}
	return r, r.root("")
}

// root returns a new root node: the run's ("") or a Kubernetes
// version's, whose pairs and problems carry that version.
func (r *report) root(version string) *node {
	n := &node{rep: r, version: version, start: time.Now()}
	n.ctx = context.WithValue(r.ctx, nodeKey{}, n)
	return n
}

func (n *node) Helper() {}

func (n *node) Context() context.Context { return n.ctx }

func (n *node) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r := n.rep
	r.mu.Lock()
	defer r.mu.Unlock()
	for p := n; p != nil; p = p.parent {
		p.failed = true
	}
	if n.depth == 0 {
		// A suite that could not be prepared, a server that did not
		// start: one failure of its own.
		if r.matrix && n.version != "" {
			msg = "Kubernetes " + n.version + ": " + msg
		}
		r.problems = append(r.problems, msg)
		r.failed++
		r.kube(n.version).failed++
		fmt.Fprintf(r.out, "FAIL  %s\n", indentTail(msg))
		return
	}
	n.errors = append(n.errors, msg)
}

func (n *node) Logf(format string, args ...any) {
	n.rep.mu.Lock()
	defer n.rep.mu.Unlock()
	n.logs = append(n.logs, fmt.Sprintf(format, args...))
}

func (n *node) Skipf(format string, args ...any) {
	n.rep.mu.Lock()
	defer n.rep.mu.Unlock()
	n.skipped = fmt.Sprintf(format, args...)
}

// Warnings returns the warnings the node received
// (suite.ReplayReporter).
func (n *node) Warnings() []string {
	n.rep.mu.Lock()
	defer n.rep.mu.Unlock()
	return slices.Clone(n.warnings)
}

// Replayed marks the test as not run, with the warnings of its last run
// (suite.ReplayReporter); they count as received again.
func (n *node) Replayed(warnings []string) {
	n.rep.mu.Lock()
	defer n.rep.mu.Unlock()
	n.unchanged = true
	n.warnings = append(n.warnings, warnings...)
	n.rep.warnings += len(warnings)
}

// warn records a warning the API server sent on a request of the node.
func (n *node) warn(text string) {
	r := n.rep
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings++
	if n.depth == 0 {
		if r.matrix && n.version != "" {
			text = n.version + ": " + text
		}
		r.loose = append(r.loose, text)
		return
	}
	n.warnings = append(n.warnings, text)
}

func (n *node) Run(name string, f func(suite.Reporter)) bool {
	return n.run(name, "", f)
}

// RunPair is Run for a (suite, CRD file) pair (suite.PairReporter): the
// pair remembers its suite file, for the closing table.
func (n *node) RunPair(name string, _ *suite.Variant, s *suite.Suite, f func(suite.Reporter)) bool {
	return n.run(name, suitePath(n.rep.baseDir, s), f)
}

func (n *node) run(name, suiteFile string, f func(suite.Reporter)) bool {
	child := &node{rep: n.rep, parent: n, name: name, version: n.version, depth: n.depth + 1, start: time.Now(), group: n.group}
	child.ctx = context.WithValue(n.ctx, nodeKey{}, child)
	switch {
	case n.depth == 0:
		child.group = &groupResult{name: name, version: n.version, suitePath: suiteFile}
	case n.depth >= 2:
		child.name = n.name + "/" + name
	}
	n.rep.mu.Lock()
	n.children = true
	n.rep.mu.Unlock()
	f(child)
	n.rep.finish(child)
	n.rep.mu.Lock()
	defer n.rep.mu.Unlock()
	return !child.failed
}

// kube returns the tally of a Kubernetes version. r.mu must be held.
func (r *report) kube(version string) *tally {
	t := r.byKube[version]
	if t == nil {
		t = &tally{}
		r.byKube[version] = t
	}
	return t
}

// cell returns the tally of a suite file on a version. r.mu must be held.
func (r *report) cell(suiteFile, version string) *tally {
	row := r.bySuite[suiteFile]
	if row == nil {
		row = map[string]*tally{}
		r.bySuite[suiteFile] = row
	}
	t := row[version]
	if t == nil {
		t = &tally{}
		row[version] = t
	}
	return t
}

// count records one finished test (or a pair that failed before its
// tests could run). r.mu must be held.
func (r *report) count(g *groupResult, failed bool, skipped string) {
	switch {
	case failed:
		r.failed++
	case skipped != "":
		r.skipped++
	default:
		r.passed++
	}
	r.kube(g.version).add(failed, skipped)
	if g.suitePath != "" {
		r.cell(g.suitePath, g.version).add(failed, skipped)
	}
}

// finish records a node whose function has returned.
func (r *report) finish(n *node) {
	r.mu.Lock()
	defer r.mu.Unlock()
	elapsed := time.Since(n.start)
	if !n.children && n.depth >= 2 {
		n.group.tests = append(n.group.tests, testResult{name: n.name, duration: elapsed, errors: n.errors, logs: n.logs, warnings: n.warnings,
			skipped: n.skipped, unchanged: n.unchanged})
		r.count(n.group, n.failed, n.skipped)
		return
	}
	if n.depth == 2 {
		n.group.warnings = append(n.group.warnings, n.warnings...)
	}
	if n.depth != 1 {
		return
	}
	g := n.group
	g.duration, g.errors = elapsed, n.errors
	g.warnings = append(n.warnings, g.warnings...)
	if !n.children {
		// The pair failed before its tests could run (its CRD did not
		// install): it counts as one failed test.
		r.count(g, n.failed, "")
	}
	r.groups = append(r.groups, g)
	r.printGroup(g, n.failed)
}

// printGroup prints the progress line of a finished pair and, when it
// failed, its failures: each names the suite file and line and shows the
// diff or the error, and the API server's warnings on its requests.
func (r *report) printGroup(g *groupResult, failed bool) {
	failedTests, skippedTests, unchangedTests := 0, 0, 0
	for _, t := range g.tests {
		if t.unchanged {
			unchangedTests++
		}
		switch {
		case len(t.errors) > 0:
			failedTests++
		case t.skipped != "":
			skippedTests++
		}
	}
	status, detail := "ok   ", fmt.Sprintf("%d tests", len(g.tests))
	if failed {
		status = "FAIL "
		detail = fmt.Sprintf("%d tests, %d failed", len(g.tests), failedTests)
	}
	if skippedTests > 0 {
		detail += fmt.Sprintf(", %d skipped", skippedTests)
	}
	if unchangedTests > 0 {
		detail += fmt.Sprintf(", %d unchanged, not re-run", unchangedTests)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s, %v)\n", status, g.label(r.matrix), detail, g.duration.Round(time.Millisecond))
	for _, e := range g.errors {
		fmt.Fprintf(&b, "    %s\n", indentTail(e))
	}
	if failed || r.verbose {
		writeWarnings(&b, "    ", g.warnings)
	}
	for _, t := range g.tests {
		switch {
		case len(t.errors) > 0:
			fmt.Fprintf(&b, "    --- FAIL: %s%s\n", t.name, t.unchangedMark())
			for _, e := range t.errors {
				fmt.Fprintf(&b, "        %s\n", strings.ReplaceAll(e, "\n", "\n        "))
			}
			writeWarnings(&b, "        ", t.warnings)
		case t.skipped != "":
			fmt.Fprintf(&b, "    --- SKIP: %s: %s\n", t.name, indentTail(t.skipped))
		case r.verbose:
			fmt.Fprintf(&b, "    --- ok: %s (%v)%s\n", t.name, t.duration.Round(time.Millisecond), t.unchangedMark())
			writeWarnings(&b, "        ", t.warnings)
		}
	}
	// One write per pair: pairs finishing at once on several servers
	// never interleave.
	io.WriteString(r.out, b.String())
}

// unchangedMark follows the name of a test that did not run again.
func (t testResult) unchangedMark() string {
	if t.unchanged {
		return " (unchanged, not re-run: the outcome of its last run)"
	}
	return ""
}

// writeWarnings writes API warnings, one "warning:" line each.
func writeWarnings(b *strings.Builder, indent string, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(b, "%swarning: %s\n", indent, strings.ReplaceAll(w, "\n", "\n"+indent+"    "))
	}
}

// indentTail indents every line of a message but the first.
func indentTail(msg string) string {
	return strings.ReplaceAll(msg, "\n", "\n    ")
}

// summary returns the counts.
func (r *report) summary() (passed, failed, skipped int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.passed, r.failed, r.skipped
}

// warningSummary says how many API warnings the run received and where
// they are shown; with -v it also lists those received outside any test.
// "" when there were none.
func (r *report) warningSummary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.warnings == 0 {
		return ""
	}
	var b strings.Builder
	plural := "s"
	if r.warnings == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "apitest: %d warning%s from the API server", r.warnings, plural)
	if r.verbose {
		b.WriteString(", each under its test")
		if len(r.loose) > 0 {
			fmt.Fprintf(&b, "; %d outside any test:", len(r.loose))
			for _, w := range r.loose {
				fmt.Fprintf(&b, "\n    warning: %s", w)
			}
		}
	} else {
		b.WriteString(" (shown under failing tests; -v shows every one)")
	}
	return b.String()
}

// table renders the closing table of a run on several Kubernetes
// versions: one row per suite file, one column per version, each cell
// "passed/failed" (and the skipped, if any), and a total row.
func (r *report) table(versions []string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	cellText := func(t *tally) string {
		if t == nil {
			return "-"
		}
		s := fmt.Sprintf("%d/%d", t.passed, t.failed)
		if t.skipped > 0 {
			s += fmt.Sprintf(" +%d skipped", t.skipped)
		}
		return s
	}
	files := make([]string, 0, len(r.bySuite))
	for f := range r.bySuite {
		files = append(files, f)
	}
	slices.Sort(files)
	rows := [][]string{append([]string{"suite file"}, versions...)}
	for _, f := range files {
		row := []string{f}
		for _, v := range versions {
			row = append(row, cellText(r.bySuite[f][v]))
		}
		rows = append(rows, row)
	}
	total := []string{"total"}
	for _, v := range versions {
		total = append(total, cellText(r.byKube[v]))
	}
	rows = append(rows, total)
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	var b strings.Builder
	b.WriteString("apitest: tests passed/failed by suite file and Kubernetes version\n")
	for _, row := range rows {
		b.WriteString("   ")
		for i, c := range row {
			if i == 0 {
				fmt.Fprintf(&b, " %-*s", widths[i], c)
			} else {
				fmt.Fprintf(&b, "  %*s", widths[i], c)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
