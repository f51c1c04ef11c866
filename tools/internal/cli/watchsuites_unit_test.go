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
		`{"pairs":2,"passed":3,"failed":1,"unchanged":2,"output":"FAIL  the pair\n    --- FAIL: onCreate/the test\n","duration":1000000,"where":"2 batches: ..."}`)
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
	s, err := startSuites(t.Context(), opts, program, watchFlags{skip: "hack/skip.yaml", rerunAll: true})
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
		"suites #3: 3 passed, 1 failed (2 tests unchanged, not re-run) in 2 (suite × CRD file) pair(s) on Kubernetes 1.32; 1ms (2 batches: ...)\n" +
		"FAIL  the pair\n    --- FAIL: onCreate/the test\n"
	if got := out.String(); got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	args, err := os.ReadFile(argsLog)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(args)), "--serve --base-dir "+base+" --kube-version 1.32 --skip hack/skip.yaml --rerun-all"; got != want {
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

// fakeServe writes a program that runs script in place of apitest --serve.
func fakeServe(t *testing.T, script string) string {
	t.Helper()
	program := filepath.Join(t.TempDir(), "apitest")
	if err := os.WriteFile(program, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return program
}

// TestSuiteRunnerWithoutServer: a child whose server does not start, that
// ends before it says so (a bad skip list), or that ends mid-watch turns
// the suites off with one error line saying why, and every cycle that
// would run suites says it did not; the watch goes on, and its stop is
// clean. Only a child that served and then fails on its way out fails
// the stop.
func TestSuiteRunnerWithoutServer(t *testing.T) {
	crdCycle := func(n int) watch.Report {
		return watch.Report{Cycle: n, Files: []string{"api/v1/zz_generated.crd-manifests/w.crd.yaml"}}
	}
	const off = "error: --suites: the suites are off for the rest of this watch: "
	for _, tc := range []struct {
		name, script, want, stopErr string
	}{
		{"server did not start", `echo '{"ready":false,"error":"no etcd"}'; exit 1`,
			off + "the API server did not start: no etcd\n" +
				"suites #2: not run: the API server did not start: no etcd\n" +
				"suites #3: not run: the API server did not start: no etcd\n", ""},
		{"ended before ready", "echo 'error: --skip: skip.yaml: no such file' >&2; exit 3",
			"error: --skip: skip.yaml: no such file\n" +
				off + "apitest --serve ended before its API server was ready (exit status 3)\n" +
				"suites #2: not run: apitest --serve ended before its API server was ready (exit status 3)\n" +
				"suites #3: not run: apitest --serve ended before its API server was ready (exit status 3)\n", ""},
		{"ended mid-watch", `echo '{"ready":true,"kubeVersion":"1.32"}'; read -r line; exit 2`,
			off + "apitest --serve ended (EOF)\n" +
				"suites #2: not run: apitest --serve ended (EOF)\n" +
				"suites #3: not run: apitest --serve ended (EOF)\n", ""},
		{"served, failed to stop", `echo '{"ready":true,"kubeVersion":"1.32"}'; cat >/dev/null; exit 1`,
			"suites #1: no CRD file or suite changed\n", "apitest --serve: exit status 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out syncWriter
			s, err := startSuites(t.Context(), &options{baseDir: ".", stderr: &out}, fakeServe(t, tc.script), watchFlags{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.stopErr == "" {
				s.afterCycle(crdCycle(2))
				s.afterCycle(crdCycle(3))
			} else {
				s.afterCycle(watch.Report{Cycle: 1})
			}
			err = s.stop()
			if got := out.String(); got != tc.want {
				t.Errorf("printed\n%s\nwant\n%s", got, tc.want)
			}
			if (err == nil) != (tc.stopErr == "") || err != nil && err.Error() != tc.stopErr {
				t.Errorf("stop: %v, want %q", err, tc.stopErr)
			}
		})
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
