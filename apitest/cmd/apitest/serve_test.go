package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/suiteserve"
)

// serveSession is apitest --serve running in the test: requests go in
// as JSON lines, answers come back decoded.
type serveSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan int
}

func startServe(t *testing.T, args ...string) (*serveSession, suiteserve.Ready) {
	t.Helper()
	cfg, err := parseFlags(append(args, "--serve"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &serveSession{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan int, 1)}
	var stderr bytes.Buffer
	go func() {
		code := serve(t.Context(), cfg, inR, &lockedWriter{w: outW}, &lockedWriter{w: &stderr})
		outW.Close()
		s.done <- code
	}()
	var ready suiteserve.Ready
	s.read(&ready)
	return s, ready
}

func (s *serveSession) read(v any) {
	s.t.Helper()
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatalf("reading an answer of apitest --serve: %v", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		s.t.Fatalf("answer %q: %v", line, err)
	}
}

func (s *serveSession) send(line string) suiteserve.Result {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
	var res suiteserve.Result
	s.read(&res)
	return res
}

func (s *serveSession) request(req suiteserve.Request) suiteserve.Result {
	s.t.Helper()
	data, err := json.Marshal(req)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.send(string(data))
}

// TestServeRunsTheSuitesOfTheRequestedFiles keeps one server of the linked
// release up for several requests: a suite file runs against each CRD
// file it matches, a CRD file runs every suite that matches it, a broken
// expectation fails naming its test, the CRDs a request installed serve
// the next one (kept or updated in place), and the end of standard input stops
// the server and the command with status 0.
func TestServeRunsTheSuitesOfTheRequestedFiles(t *testing.T) {
	base := copyDir(t, exampleDir)
	s, ready := startServe(t, "--base-dir", base, "--payload-dir", payloadDir, "--kube-version", "1.37")
	if !ready.Ready || ready.KubeVersion != "1.37" || ready.Error != "" {
		t.Fatalf("ready line %+v", ready)
	}
	suitePath := filepath.Join(base, "v1", "tests", "stableconfigtypes.example.openshift.io", "AAA_ungated.yaml")
	crdPath := filepath.Join(base, "v1alpha1", "zz_generated.crd-manifests", "0000_50_my-operator_01_notstableconfigtypes.crd.yaml")

	// An ungated suite matches every feature set's CRD file of v1; the 5
	// files hold 3 distinct specs, so they are installed in 3 batches
	// (suite.Plan.Batches).
	res := s.request(suiteserve.Request{SuiteFiles: []string{suitePath}})
	if res.Pairs != 5 || res.Failed != 0 || res.Passed == 0 || res.Output != "" || !strings.HasPrefix(res.Where, "3 batches: CRD installs ") {
		t.Errorf("the ungated suite: %+v, want 5 pairs that pass and no output", res)
	}
	// v1alpha1's one CRD file has one suite; v1's suites do not run.
	res = s.request(suiteserve.Request{CRDFiles: []string{crdPath}})
	if res.Pairs != 1 || res.Failed != 0 || res.Passed == 0 {
		t.Errorf("the v1alpha1 CRD file: %+v, want 1 pair that passes", res)
	}

	data, err := os.ReadFile(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	const from, to = "immutableField: foo", "immutableField: bar"
	i := strings.LastIndex(string(data), from)
	if i < 0 {
		t.Fatalf("%s has no %q", suitePath, from)
	}
	broken := string(data[:i]) + to + string(data[i+len(from):])
	if err := os.WriteFile(suitePath, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same pairs again: the CRD of the last spec the first request
	// installed is still there, the other two are updated in place.
	res = s.request(suiteserve.Request{SuiteFiles: []string{suitePath}})
	if res.Pairs != 5 || !strings.Contains(res.Where, "(1 kept installed, 2 updated in place)") {
		t.Errorf("the same pairs again: %+v, want 5 pairs, 1 CRD kept installed and 2 updated in place", res)
	}
	if res.Failed == 0 || !strings.Contains(res.Output, "FAIL  [example.openshift.io/v1, Resource=stableconfigtypes]") ||
		!strings.Contains(res.Output, "    --- FAIL: onUpdate/") || !strings.Contains(res.Output, suitePath+":") {
		t.Errorf("the broken suite: %+v, want failures naming the test and the file", res)
	}
	if strings.Contains(res.Output, "ok    [") {
		t.Errorf("the output shows pairs that passed:\n%s", res.Output)
	}

	if res := s.send("{not json"); res.Error == "" || res.Pairs != 0 {
		t.Errorf("a malformed request: %+v, want an error", res)
	}
	// A file of no version directory runs nothing.
	if res := s.request(suiteserve.Request{CRDFiles: []string{filepath.Join(base, "README.md")}}); res.Pairs != 0 || res.Failed != 0 {
		t.Errorf("a file outside any version directory: %+v, want nothing run", res)
	}
	s.in.Close()
	if code := <-s.done; code != exitPassed {
		t.Errorf("exit %d after the end of standard input, want %d", code, exitPassed)
	}
}

func TestServeRejectsSeveralVersions(t *testing.T) {
	cfg, err := parseFlags([]string{"--base-dir", exampleDir, "--kube-version", "1.36,1.37", "--serve"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := serve(t.Context(), cfg, strings.NewReader(""), &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "one Kubernetes version") {
		t.Errorf("exit %d, stderr %q; want %d and why", code, stderr.String(), exitUsage)
	}
}

// TestServeRunsOnlyChangedTests asks for one suite file of the example
// again and again: a repeated request runs no test and reports the same
// results, a failure included and marked as not re-run; after the first
// test of the suite is renamed, only that test runs (once per pair);
// with --rerun-all every request runs every test.
func TestServeRunsOnlyChangedTests(t *testing.T) {
	base := copyDir(t, exampleDir)
	suitePath := filepath.Join(base, "v1", "tests", "stableconfigtypes.example.openshift.io", "AAA_ungated.yaml")
	editFile(t, suitePath, "immutableField: foo", "immutableField: bar", strings.LastIndex)
	req := suiteserve.Request{SuiteFiles: []string{suitePath}}
	s, _ := startServe(t, "--base-dir", base, "--payload-dir", payloadDir, "--kube-version", "1.37")
	first := s.request(req)
	if first.Pairs != 5 || first.Failed == 0 || first.Unchanged != 0 {
		t.Fatalf("the first request: %+v, want 5 pairs, failures, every test run", first)
	}
	again := s.request(req)
	total := first.Passed + first.Failed
	if again.Passed != first.Passed || again.Failed != first.Failed || again.Unchanged != total {
		t.Errorf("the same request again: %+v, want the counts of %+v, all %d tests unchanged", again, first, total)
	}
	if !strings.Contains(again.Output, " unchanged, not re-run, ") || !strings.Contains(again.Output, "(unchanged, not re-run: the outcome of its last run)") {
		t.Errorf("the failures of unchanged tests are not listed as such:\n%s", again.Output)
	}
	editFile(t, suitePath, "- name: ", "- name: Renamed, ", strings.Index)
	renamed := s.request(req)
	if renamed.Passed+renamed.Failed != total || renamed.Unchanged != total-renamed.Pairs {
		t.Errorf("after renaming the first test: %+v, want %d tests, all but one per pair unchanged", renamed, total)
	}
	crdFile := filepath.Join(base, "v1", "zz_generated.crd-manifests", "0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml")
	editFile(t, crdFile, "description: spec holds the desired configuration.", "description: spec holds the desired configuration, edited.", strings.Index)
	if res := s.request(req); res.Unchanged != total {
		t.Errorf("after a description-only edit of a CRD file: %+v, want all %d tests unchanged", res, total)
	}
	editFile(t, crdFile, "maxLength: 63", "maxLength: 62", strings.Index)
	if res := s.request(req); res.Unchanged == total || res.Passed+res.Failed != total {
		t.Errorf("after a maxLength edit of a CRD file: %+v, want the tests of its pairs run", res)
	}
	s.in.Close()
	<-s.done

	all, _ := startServe(t, "--base-dir", base, "--payload-dir", payloadDir, "--kube-version", "1.37", "--rerun-all")
	all.request(req)
	if res := all.request(req); res.Unchanged != 0 || res.Passed+res.Failed != total {
		t.Errorf("--rerun-all, the same request again: %+v, want all %d tests run", res, total)
	}
	all.in.Close()
	<-all.done
}

// editFile replaces one from in a file, the one at the index find
// returns, by to.
func editFile(t *testing.T, path, from, to string, find func(s, substr string) int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := find(string(data), from)
	if i < 0 {
		t.Fatalf("%s has no %q", path, from)
	}
	if err := os.WriteFile(path, []byte(string(data[:i])+to+string(data[i+len(from):])), 0o644); err != nil {
		t.Fatal(err)
	}
}
