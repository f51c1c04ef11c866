package main

import (
	"encoding/xml"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
)

// The JUnit XML schema as CI dashboards (Jenkins, GitLab, Prow's
// Spyglass) read it: one testsuite per (suite, CRD file) pair and
// Kubernetes version, one testcase per test, a failure element holding
// the messages of a failed test. In a run on several versions the
// testsuite's name starts with the version, so that names stay unique;
// every testsuite of a pair carries its version as the property
// kubeVersion.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	// Properties carry the Kubernetes version the pair ran on
	// (kubeVersion) and the apiextensions-apiserver release of its server.
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// problemsSuite names the testsuite that holds the suites that could not
// be prepared (parse errors, unknown gates, ...), one testcase each.
const problemsSuite = "suite problems"

// writeJUnit writes the report as JUnit XML to path.
func (r *report) writeJUnit(path string, elapsed time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	doc := junitSuites{Name: "apitest", Tests: r.passed + r.failed + r.skipped, Failures: r.failed, Skipped: r.skipped, Time: seconds(elapsed)}
	if len(r.problems) > 0 {
		s := junitSuite{Name: problemsSuite, Tests: len(r.problems), Failures: len(r.problems), Time: seconds(0)}
		for i, p := range r.problems {
			s.Cases = append(s.Cases, junitCase{Name: "problem " + strconv.Itoa(i+1), Classname: problemsSuite, Time: seconds(0), Failure: failure([]string{p})})
		}
		doc.Suites = append(doc.Suites, s)
	}
	for _, g := range r.groups {
		name := g.label(r.matrix)
		s := junitSuite{Name: name, Time: seconds(g.duration)}
		if g.version != "" {
			s.Properties = append(s.Properties, junitProperty{Name: "kubeVersion", Value: g.version})
			if v, err := kubeversion.Lookup(g.version); err == nil {
				s.Properties = append(s.Properties, junitProperty{Name: "k8s.io/apiextensions-apiserver", Value: v.APIExtensions})
			}
		}
		if len(g.tests) == 0 {
			s.Cases = append(s.Cases, junitCase{Name: "install", Classname: name, Time: seconds(g.duration), Failure: failure(g.errors)})
		}
		for _, t := range g.tests {
			out := t.logs
			for _, w := range t.warnings {
				out = append(out, "warning: "+w)
			}
			c := junitCase{Name: t.name, Classname: name, Time: seconds(t.duration),
				Failure: failure(t.errors), SystemOut: strings.Join(out, "\n")}
			if t.skipped != "" {
				c.Skipped = &junitSkipped{Message: t.skipped}
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				s.Failures++
			case c.Skipped != nil:
				s.Skipped++
			}
		}
		doc.Suites = append(doc.Suites, s)
	}
	data, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(xml.Header), append(data, '\n')...), 0o644)
}

// failure returns the failure element of a test with the given errors,
// nil when there are none. The message attribute is the first line of
// the first error; the text holds them all.
func failure(errs []string) *junitFailure {
	if len(errs) == 0 {
		return nil
	}
	first, _, _ := strings.Cut(errs[0], "\n")
	return &junitFailure{Message: first, Text: strings.Join(errs, "\n\n")}
}

// seconds renders a duration as JUnit wants it: seconds, here to the
// millisecond.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
