package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/suiteserve"
	"github.com/gatedcrd/gatedcrd/tools/pkg/watch"
)

// fakeAPITest writes a program that speaks apitest --serve's protocol:
// it logs its arguments and every request, and answers each with result.
func fakeAPITest(t *testing.T, ready, result string) (program, args, requests string) {
	t.Helper()
	dir := t.TempDir()
	program, args, requests = filepath.Join(dir, "apitest"), filepath.Join(dir, "args"), filepath.Join(dir, "requests")
	script := "#!/bin/sh\necho \"$@\" > " + args + "\nprintf '%s\\n' '" + ready + "'\n" +
		"while read -r line; do printf '%s\\n' \"$line\" >> " + requests + "; printf '%s\\n' '" + result + "'; done\n"
	if err := os.WriteFile(program, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return program, args, requests
}

// TestSuiteRunnerRequestsAndPrints checks codegen's side of --suites
// against a stand-in apitest: the arguments it is started with, the
// request after a cycle (the generated CRD files written, the suite files
// saved that still exist), the result line and the failures printed, the
// lines of cycles that run nothing, and a clean stop.
func TestSuiteRunnerRequestsAndPrints(t *testing.T) {
	program, argsLog, requestsLog := fakeAPITest(t, `{"ready":true,"kubeVersion":"1.32"}`,
		`{"pairs":2,"passed":3,"failed":1,"output":"FAIL  the pair\n    --- FAIL: onCreate/the test\n","duration":1000000,"where":"2 batches: ..."}`)
	base := t.TempDir()
	suitePath := filepath.Join(base, "api/v1/tests/widgets.example.com/Gate.yaml")
	if err := os.MkdirAll(filepath.Dir(suitePath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(suitePath, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out syncWriter
	opts := &options{baseDir: base, kubeVersion: "1.32", stderr: &out}
	s, err := startSuites(t.Context(), opts, program)
	if err != nil {
		t.Fatal(err)
	}
	s.afterCycle(watch.Report{Cycle: 1})
	s.afterCycle(watch.Report{Cycle: 2, Err: errors.New("bad input")})
	s.afterCycle(watch.Report{Cycle: 3,
		Files:   []string{"api/v1/zz_generated.crd-manifests/widgets-Default.crd.yaml", "api/v1/zz_generated.featuregated-crd-manifests/widgets.example.com/Gate.yaml"},
		Changed: []string{"api/v1/types.go", "api/v1/tests/widgets.example.com/Gate.yaml", "api/v1/tests/widgets.example.com/Gone.yaml"}})
	if err := s.stop(); err != nil {
		t.Errorf("stop: %v", err)
	}

	want := "suites #1: no CRD file or suite changed\n" +
		"suites #2: not run, the cycle failed\n" +
		"suites #3: 3 passed, 1 failed in 2 (suite × CRD file) pair(s) on Kubernetes 1.32; 1ms (2 batches: ...)\n" +
		"FAIL  the pair\n    --- FAIL: onCreate/the test\n"
	if got := out.String(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	args, err := os.ReadFile(argsLog)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(args)), "--serve --base-dir "+base+" --kube-version 1.32"; got != want {
		t.Errorf("started with %q, want %q", got, want)
	}
	data, err := os.ReadFile(requestsLog)
	if err != nil {
		t.Fatal(err)
	}
	var req suiteserve.Request
	if err := json.Unmarshal(data, &req); err != nil {
		t.Fatalf("one request expected, got %q: %v", data, err)
	}
	if !slices.Equal(req.CRDFiles, []string{filepath.Join(base, "api/v1/zz_generated.crd-manifests/widgets-Default.crd.yaml")}) ||
		!slices.Equal(req.SuiteFiles, []string{suitePath}) {
		t.Errorf("request %+v, want the Default CRD file and the saved suite", req)
	}
}

// TestSuiteRunnerServerDidNotStart: a server that does not start is
// reported on the cycles that would run suites.
func TestSuiteRunnerServerDidNotStart(t *testing.T) {
	program, _, _ := fakeAPITest(t, `{"ready":false,"error":"no etcd"}`, `{}`)
	var out syncWriter
	s, err := startSuites(t.Context(), &options{baseDir: ".", stderr: &out}, program)
	if err != nil {
		t.Fatal(err)
	}
	s.afterCycle(watch.Report{Cycle: 2, Files: []string{"api/v1/zz_generated.crd-manifests/w.crd.yaml"}})
	_ = s.stop()
	if want := "suites #2: not run: the API server did not start: no etcd\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}

// syncWriter is a buffer the child's standard error and the runner write
// to at once.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
