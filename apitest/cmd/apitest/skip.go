package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/suite"
	"go.yaml.in/yaml/v3"
)

// skipEntry is one entry of a skip list: tests of one suite file that
// cannot pass on some Kubernetes versions, and why.
type skipEntry struct {
	// Suite is the suite file, relative to --base-dir, with "/".
	Suite string `yaml:"suite"`
	// Tests are "onCreate/<test name>" or "onUpdate/<test name>".
	Tests []string `yaml:"tests"`
	// KubeVersions limits the entry to these minors; empty means every
	// version.
	KubeVersions []string `yaml:"kubeVersions"`
	// Reason is shown for every skipped test.
	Reason string `yaml:"reason"`
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
// for minor are kept.
func readSkipList(path, minor string) (*skipList, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	decoder.KnownFields(true)
	if err := decoder.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	list := &skipList{path: path}
	if len(doc.Content) == 0 {
		return list, nil
	}
	var entries []skipEntry
	if err := decodeStrict(doc.Content[0], &entries); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, item := range doc.Content[0].Content {
		e := entries[i]
		e.line = item.Line
		at := fmt.Sprintf("%s:%d", path, e.line)
		switch {
		case e.Suite == "":
			return nil, fmt.Errorf("%s: an entry needs suite: (the suite file, relative to --base-dir)", at)
		case len(e.Tests) == 0:
			return nil, fmt.Errorf("%s: an entry needs tests: (onCreate/<test name> or onUpdate/<test name>)", at)
		case strings.TrimSpace(e.Reason) == "":
			return nil, fmt.Errorf("%s: an entry needs reason: (why the tests cannot pass)", at)
		}
		for _, t := range e.Tests {
			kind, name, _ := strings.Cut(t, "/")
			if (kind != suite.OnCreate && kind != suite.OnUpdate) || name == "" {
				return nil, fmt.Errorf("%s: test %q is not onCreate/<test name> or onUpdate/<test name>", at, t)
			}
		}
		applies := len(e.KubeVersions) == 0
		for _, v := range e.KubeVersions {
			version, err := kubeversion.Lookup(v)
			if err != nil {
				return nil, fmt.Errorf("%s: kubeVersions: %w", at, err)
			}
			applies = applies || version.Minor == minor
		}
		if applies {
			list.entries = append(list.entries, e)
		}
	}
	return list, nil
}

// decodeStrict decodes a node, failing on fields the target does not
// have.
func decodeStrict(n *yaml.Node, out any) error {
	data, err := yaml.Marshal(n)
	if err != nil {
		return err
	}
	decoder := yaml.NewDecoder(bytes.NewReader(data))
	decoder.KnownFields(true)
	return decoder.Decode(out)
}

// reason returns why the list skips a test of a suite below baseDir, or "".
func (l *skipList) reason(baseDir string, s *suite.Suite, kind, test string) string {
	if l == nil {
		return ""
	}
	rel := suitePath(baseDir, s)
	for _, e := range l.entries {
		if e.Suite == rel && slices.Contains(e.Tests, kind+"/"+test) {
			return fmt.Sprintf("%s (%s:%d)", strings.TrimSpace(e.Reason), l.path, e.line)
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
				errs = append(errs, fmt.Errorf("%s:%d: the skip list names %s of %s, which is not a test of the run", l.path, e.line, t, e.Suite))
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
