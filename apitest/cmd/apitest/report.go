package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/suite"
)

// report is the command's suite.Reporter: it counts tests, prints
// progress as each (suite, CRD file) pair finishes, and keeps the results
// for the JUnit file. A test is a subtest without subtests.
type report struct {
	ctx     context.Context
	out     io.Writer
	verbose bool

	mu       sync.Mutex // guards everything below and every node's state
	passed   int
	failed   int
	skipped  int
	problems []string       // errors outside any pair: broken suites
	groups   []*groupResult // finished pairs, in the order they finished
}

// groupResult is one finished (suite, CRD file) pair.
type groupResult struct {
	name     string
	duration time.Duration
	errors   []string // reported on the pair itself, e.g. a failed install
	tests    []testResult
}

// testResult is one finished test.
type testResult struct {
	name     string // below its pair: "onCreate/<test name>"
	duration time.Duration
	errors   []string
	logs     []string
	skipped  string // the reason, when skipped
}

// node is one level of the test tree: the report itself (depth 0), a pair
// (depth 1), onCreate/onUpdate (2) or a test (3).
type node struct {
	rep      *report
	parent   *node
	name     string // relative to the pair; the pair's full name at depth 1
	depth    int
	start    time.Time
	failed   bool
	children bool
	errors   []string
	logs     []string
	skipped  string       // why the test was skipped; "" when it ran
	group    *groupResult // the pair this node belongs to (depth >= 1)
}

func newReport(ctx context.Context, out io.Writer, verbose bool) (*report, *node) {
	r := &report{ctx: ctx, out: out, verbose: verbose}
	return r, &node{rep: r, start: time.Now()}
}

func (n *node) Helper() {}

func (n *node) Context() context.Context { return n.rep.ctx }

func (n *node) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r := n.rep
	r.mu.Lock()
	defer r.mu.Unlock()
	for p := n; p != nil; p = p.parent {
		p.failed = true
	}
	if n.depth == 0 {
		// A suite that could not be prepared: one failure of its own.
		r.problems = append(r.problems, msg)
		r.failed++
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

func (n *node) Run(name string, f func(suite.Reporter)) bool {
	child := &node{rep: n.rep, parent: n, name: name, depth: n.depth + 1, start: time.Now(), group: n.group}
	switch {
	case n.depth == 0:
		child.group = &groupResult{name: name}
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

// finish records a node whose function has returned.
func (r *report) finish(n *node) {
	r.mu.Lock()
	defer r.mu.Unlock()
	elapsed := time.Since(n.start)
	if !n.children && n.depth >= 2 {
		n.group.tests = append(n.group.tests, testResult{name: n.name, duration: elapsed, errors: n.errors, logs: n.logs, skipped: n.skipped})
		switch {
		case n.failed:
			r.failed++
		case n.skipped != "":
			r.skipped++
		default:
			r.passed++
		}
		return
	}
	if n.depth != 1 {
		return
	}
	g := n.group
	g.duration, g.errors = elapsed, n.errors
	if !n.children {
		// The pair failed before its tests could run (its CRD did not
		// install): it counts as one failed test.
		if n.failed {
			r.failed++
		} else {
			r.passed++
		}
	}
	r.groups = append(r.groups, g)
	r.printGroup(g, n.failed)
}

// printGroup prints the progress line of a finished pair and, when it
// failed, its failures: each names the suite file and line and shows the
// diff or the error.
func (r *report) printGroup(g *groupResult, failed bool) {
	failedTests, skippedTests := 0, 0
	for _, t := range g.tests {
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
	fmt.Fprintf(r.out, "%s %s (%s, %v)\n", status, g.name, detail, g.duration.Round(time.Millisecond))
	for _, e := range g.errors {
		fmt.Fprintf(r.out, "    %s\n", indentTail(e))
	}
	for _, t := range g.tests {
		switch {
		case len(t.errors) > 0:
			fmt.Fprintf(r.out, "    --- FAIL: %s\n", t.name)
			for _, e := range t.errors {
				fmt.Fprintf(r.out, "        %s\n", strings.ReplaceAll(e, "\n", "\n        "))
			}
		case t.skipped != "":
			fmt.Fprintf(r.out, "    --- SKIP: %s: %s\n", t.name, indentTail(t.skipped))
		case r.verbose:
			fmt.Fprintf(r.out, "    --- ok: %s (%v)\n", t.name, t.duration.Round(time.Millisecond))
		}
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
