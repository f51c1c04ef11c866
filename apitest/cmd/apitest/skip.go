package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/yamlfile"
	"go.yaml.in/yaml/v3"
)

// skipEntry is one entry of a skip list: tests of one suite file that
// cannot pass on some Kubernetes versions, and why.
type skipEntry struct {
	// Suite is the suite file, relative to --base-dir, with "/".
	Suite string
	// Tests are "onCreate/<test name>" or "onUpdate/<test name>".
	Tests []string
	// KubeVersions limits the entry to these minors; empty means every
	// version.
	KubeVersions []string
	// Reason is shown for every skipped test.
	Reason string
	line   int
}

// skipList is a parsed skip list, reduced to the entries that apply to
// one Kubernetes version.
type skipList struct {
	path    string
	entries []skipEntry
}

// readSkipList reads a skip list: a YAML list of entries (see skipEntry),
// every field known, suite, tests and reason required. Only the entries
// for minor are kept. Every problem of the file is reported, each with
// its line.
func readSkipList(path, minor string) (*skipList, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := yamlfile.NewReader(path)
	list := &skipList{path: path}
	root, _ := r.Parse(data)
	if root == nil {
		return list, r.Err()
	}
	items, _ := r.List("", root, "entries with suite, tests, kubeVersions and reason")
	for _, item := range items {
		if e, applies := readSkipEntry(r, item, minor); applies {
			list.entries = append(list.entries, e)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return list, nil
}

// readSkipEntry reads one entry of a skip list and whether it applies to
// minor.
func readSkipEntry(r *yamlfile.Reader, item *yaml.Node, minor string) (skipEntry, bool) {
	e := skipEntry{line: item.Line}
	fields := r.Fields("", item, "suite", "tests", "kubeVersions", "reason")
	if fields == nil {
		return e, false
	}
	if f, ok := fields["suite"]; ok {
		e.Suite, _ = r.String("suite", f.Value)
	}
	if f, ok := fields["reason"]; ok {
		e.Reason, _ = r.String("reason", f.Value)
	}
	var tests, versions []*yaml.Node
	if f, ok := fields["tests"]; ok {
		tests, _ = r.List("tests", f.Value, "tests")
	}
	if f, ok := fields["kubeVersions"]; ok {
		versions, _ = r.List("kubeVersions", f.Value, "Kubernetes versions")
	}
	switch {
	case e.Suite == "":
		r.Addf(e.line, "", "an entry needs suite: (the suite file, relative to --base-dir)")
	case len(tests) == 0:
		r.Addf(e.line, "", "an entry needs tests: (onCreate/<test name> or onUpdate/<test name>)")
	case strings.TrimSpace(e.Reason) == "":
		r.Addf(e.line, "", "an entry needs reason: (why the tests cannot pass)")
	}
	for _, n := range tests {
		t, ok := r.String("tests", n)
		if !ok {
			continue
		}
		if kind, name, _ := strings.Cut(t, "/"); (kind != suite.OnCreate && kind != suite.OnUpdate) || name == "" {
			r.Addf(n.Line, "", "test %q is not onCreate/<test name> or onUpdate/<test name>", t)
			continue
		}
		e.Tests = append(e.Tests, t)
	}
	applies := len(versions) == 0
	for _, n := range versions {
		v, ok := r.String("kubeVersions", n)
		if !ok {
			continue
		}
		version, err := kubeversion.Lookup(v)
		if err != nil {
			r.Addf(n.Line, "kubeVersions", "%v", err)
			continue
		}
		e.KubeVersions = append(e.KubeVersions, v)
		applies = applies || version.Minor == minor
	}
	return e, applies
}

// reason returns why the list skips a test of a suite below baseDir, or "".
func (l *skipList) reason(baseDir string, s *suite.Suite, kind, test string) string {
	if l == nil {
		return ""
	}
	rel := suitePath(baseDir, s)
	for _, e := range l.entries {
		if e.Suite == rel && slices.Contains(e.Tests, kind+"/"+test) {
			return fmt.Sprintf("%s (%s)", strings.TrimSpace(e.Reason), diag.Position{File: l.path, Line: e.line})
		}
	}
	return ""
}

// stale returns a problem for every test the list names that the plan
// does not have, so that a list cannot outlive the tests it excuses.
func (l *skipList) stale(baseDir string, plan *suite.Plan) []error {
	if l == nil || plan == nil {
		return nil
	}
	have := map[string]bool{}
	for _, batch := range plan.Batches {
		for _, v := range batch {
			for _, s := range v.Suites {
				rel := suitePath(baseDir, s)
				for _, t := range s.OnCreate {
					have[rel+"\x00"+suite.OnCreate+"/"+t.Name] = true
				}
				for _, t := range s.OnUpdate {
					have[rel+"\x00"+suite.OnUpdate+"/"+t.Name] = true
				}
			}
		}
	}
	var errs []error
	for _, e := range l.entries {
		for _, t := range e.Tests {
			if !have[e.Suite+"\x00"+t] {
				errs = append(errs, diag.Errorf(l.path, e.line, "", "the skip list names %s of %s, which is not a test of the run", t, e.Suite))
			}
		}
	}
	return errs
}

// suitePath is the path of a suite file relative to baseDir, with "/".
func suitePath(baseDir string, s *suite.Suite) string {
	rel, err := filepath.Rel(baseDir, s.Path)
	if err != nil {
		return filepath.ToSlash(s.Path)
	}
	return filepath.ToSlash(rel)
}
