package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/apitest/server"
)

// TestKubeVersionLists checks --kube-version lists and ranges and
// kubeVersions of .gatedcrd.yaml: which releases a run is on, and the
// usage errors of bad input. --run matches no test, so no server starts.
func TestKubeVersionLists(t *testing.T) {
	for _, tc := range []struct {
		name, flag, config string
		first              string // expected in the first line after "on Kubernetes "; <config> is the file
		usage              string // the usage error expected
		input              bool   // usage is an input error (exit 3), not a usage error
	}{
		{name: "list", flag: "1.31,1.36", first: "1.31, 1.36 (--kube-version; k8s.io/apiextensions-apiserver v0.31.14, v0.36.6)"},
		{name: "list out of order", flag: "1.36,1.31", first: "1.31, 1.36 (--kube-version;"},
		{name: "range", flag: "1.30-1.37", first: "1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, 1.37 (--kube-version;"},
		{name: "one release is a run on one", flag: "1.32", first: "1.32 (--kube-version; k8s.io/apiextensions-apiserver v0.32.1)"},
		{name: "backwards range", flag: "1.37-1.30", usage: `--kube-version: range "1.37-1.30" runs backwards; write 1.30-1.37`},
		{name: "unsupported", flag: "1.29", usage: `--kube-version: unsupported Kubernetes version "1.29": supported are 1.30, 1.31,`},
		{name: "unsupported in a range", flag: "1.29-1.31", usage: `--kube-version: unsupported Kubernetes version "1.29"`},
		{name: "unsupported in a list", flag: "1.32,1.38", usage: `--kube-version: unsupported Kubernetes version "1.38"`},
		{name: "malformed", flag: "1.3x", usage: `--kube-version: "1.3x" is not a Kubernetes release`},
		{name: "malformed in a list", flag: "1.32,1.3x", usage: `--kube-version: "1.3x" is not a Kubernetes release`},
		{name: "repeated", flag: "1.32,1.32", usage: `--kube-version: 1.32 is listed twice`},
		{name: "configuration", config: "kubeVersion: \"1.32\"\nkubeVersions: [\"1.32\", \"1.37\"]\n", first: "1.32, 1.37 (kubeVersions of <config>:2;"},
		{name: "configuration range", config: "kubeVersions: 1.35-1.37\n", first: "1.35, 1.36, 1.37 (kubeVersions of <config>:1;"},
		{name: "flag over configuration", flag: "1.37", config: "kubeVersions: 1.35-1.37\n", first: "1.37 (--kube-version;"},
		{name: "configuration with one release", config: "kubeVersions: [\"1.33\"]\n", first: "1.33 (kubeVersions of <config>:1;"},
		{name: "configuration unsupported", config: "kubeVersions: 1.29-1.30\n", input: true, usage: `error: kubeVersions of <config>:1: unsupported Kubernetes version "1.29"`},
		{name: "configuration malformed", config: "kubeVersions: 1.37-1.30\n", input: true, usage: `error: <config>:1: kubeVersions: range "1.37-1.30" runs backwards`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			config := filepath.Join(dir, ".gatedcrd.yaml")
			if tc.config != "" {
				if err := os.WriteFile(config, []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--base-dir", dir, "--payload-dir", payloadDir, "--run", "^no test$"}
			if tc.flag != "" {
				args = append(args, "--kube-version", tc.flag)
			}
			var stdout, stderr bytes.Buffer
			code := run(t.Context(), args, &stdout, &stderr)
			expand := func(s string) string { return strings.ReplaceAll(s, "<config>", config) }
			if tc.usage != "" {
				want := exitUsage
				if tc.input {
					want = exitInput
				}
				if code != want || !strings.Contains(stderr.String(), expand(tc.usage)) {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), want, expand(tc.usage))
				}
				return
			}
			if code == exitUsage || code == exitInput {
				t.Fatalf("usage error: %s", stderr.String())
			}
			first, _, _ := strings.Cut(stderr.String(), "\n")
			if want := "apitest: suites below " + dir + " on Kubernetes " + expand(tc.first); !strings.HasPrefix(first, want) {
				t.Errorf("first line\n%s\nwant it to start with\n%s", first, want)
			}
		})
	}
}

// linkedUnderEveryLabel makes every release's server the linked one, in
// this process, for the rest of the test: a matrix run then really runs
// the suites on two servers at once, labelled with two versions, without
// building a program. Starts of the releases in fail fail. Every start
// waits until together starts have begun (or 2 minutes have passed, which
// fails it), proving that versions start concurrently.
func linkedUnderEveryLabel(t *testing.T, together int, fail ...string) {
	t.Helper()
	var mu sync.Mutex
	begun := 0
	all := make(chan struct{})
	startAPIServer = func(ctx context.Context, v kubeversion.Version, opts kubeversion.Options) (*server.Server, error) {
		mu.Lock()
		begun++
		if begun == together {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(2 * time.Minute):
			return nil, fmt.Errorf("%d versions did not start at once", together)
		}
		for _, f := range fail {
			if v.Minor == f {
				return nil, errors.New("no program in this test")
			}
		}
		linked, err := kubeversion.Lookup(kubeversion.Linked)
		if err != nil {
			return nil, err
		}
		return kubeversion.Start(ctx, linked, opts)
	}
	t.Cleanup(func() { startAPIServer = kubeversion.Start })
}

// stableDefault selects the example's pairs of stableconfigtypes with the
// Default feature set, to keep the matrix tests short.
const stableDefault = `Resource=stableconfigtypes\].*FeatureSet="Default"`

// TestMatrix runs the example's suites on two versions in one command:
// parsed once, each version on a server of its own, both at once; every
// pair line names its version; the closing table; the last line sums
// both; the JUnit file carries the version of each testsuite.
func TestMatrix(t *testing.T) {
	// The single-version run the matrix must repeat per version.
	var one bytes.Buffer
	if code := run(t.Context(), []string{"--base-dir", exampleDir, "--payload-dir", payloadDir, "--kube-version", kubeversion.Linked, "--run", stableDefault}, &one, &one); code != exitPassed {
		t.Fatalf("the single-version run failed:\n%s", one.String())
	}
	m := summaryLine.FindStringSubmatch(lastLine(one.String()))
	perVersion, _ := strconv.Atoi(m[1])
	pairs := regexp.MustCompile(`(?m)^ok    \[`).FindAllString(one.String(), -1)
	if perVersion == 0 || len(pairs) == 0 {
		t.Fatalf("the single-version run ran nothing:\n%s", one.String())
	}

	linkedUnderEveryLabel(t, 2)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	// A skip entry applies to the versions it names only.
	skip := filepath.Join(t.TempDir(), "skip.yaml")
	if err := os.WriteFile(skip, []byte(`- suite: v1/tests/stableconfigtypes.example.openshift.io/-Example.yaml
  kubeVersions: ["1.37"]
  tests: ["onCreate/Should prune coolNewField"]
  reason: only to see that it applies to 1.37 alone
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", exampleDir, "--payload-dir", payloadDir, "--kube-version", "1.32,1.37", "--run", stableDefault, "--junit", junit, "--skip", skip}, &stdout, &stderr)
	out := stdout.String()
	if code != exitPassed {
		t.Fatalf("exit %d\n%s%s", code, out, stderr.String())
	}
	if n := strings.Count(out, "--- SKIP: onCreate/Should prune coolNewField: only to see"); n != 1 ||
		!regexp.MustCompile(`(?m)^ok    1\.37 .*\(\d+ tests, 1 skipped, .*\n    --- SKIP: onCreate/Should prune coolNewField`).MatchString(out) {
		t.Errorf("%d skip lines, want one, under a 1.37 pair:\n%s", n, out)
	}
	if want := fmt.Sprintf("%d passed, 0 failed", 2*perVersion-1); lastLine(out) != want {
		t.Errorf("last line %q, want %q", lastLine(out), want)
	}
	for _, want := range []string{
		"apitest: suites below " + exampleDir + " on Kubernetes 1.32, 1.37 (--kube-version; k8s.io/apiextensions-apiserver v0.32.1, v0.37.0)\n",
		", on each of 2 Kubernetes versions\n",
		"apitest: 2 Kubernetes versions, 2 at a time (",
		"apitest: API server of Kubernetes 1.32 ready in ",
		"apitest: tests on Kubernetes 1.37 ran in ",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no %q on standard error:\n%s", want, stderr.String())
		}
	}
	if want := "apitest: tests passed/failed by suite file and Kubernetes version\n"; !strings.Contains(out, want) {
		t.Errorf("no %q on standard output:\n%s", want, out)
	}
	for _, v := range []string{"1.32", "1.37"} {
		if n := len(regexp.MustCompile(`(?m)^ok    `+regexp.QuoteMeta(v)+` \[example\.openshift\.io/v1, Resource=stableconfigtypes\]`).FindAllString(out, -1)); n != len(pairs) {
			t.Errorf("%d pair lines name %s, want %d\n%s", n, v, len(pairs), out)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^ok    \[`).FindAllString(out, -1)); n != 0 {
		t.Errorf("%d pair lines name no version", n)
	}
	// The table: a row per suite file, a column per version, the total.
	table := out[strings.Index(out, "apitest: tests passed/failed by suite file"):]
	if !regexp.MustCompile(`(?m)^    suite file\s+1\.32\s+1\.37$`).MatchString(table) ||
		!regexp.MustCompile(fmt.Sprintf(`(?m)^    total\s+%d/0\s+%d/0 \+1 skipped$`, perVersion, perVersion-1)).MatchString(table) ||
		!regexp.MustCompile(`(?m)^    v1/tests/stableconfigtypes\.example\.openshift\.io/-Example\.yaml\s+\d+/0\s+\d+/0 \+1 skipped$`).MatchString(table) ||
		!regexp.MustCompile(`(?m)^    v1/tests/stableconfigtypes\.example\.openshift\.io/AAA_ungated\.yaml\s+\d+/0\s+\d+/0$`).MatchString(table) {
		t.Errorf("table:\n%s", table)
	}

	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 2*perVersion || doc.Failures != 0 || doc.Skipped != 1 || len(doc.Suites) != 2*len(pairs) {
		t.Errorf("JUnit: %d tests, %d failures, %d skipped, %d testsuites; want %d, 0, 1, %d", doc.Tests, doc.Failures, doc.Skipped, len(doc.Suites), 2*perVersion, 2*len(pairs))
	}
	for _, s := range doc.Suites {
		version, _, _ := strings.Cut(s.Name, " ")
		if len(s.Properties) == 0 || s.Properties[0] != (junitProperty{Name: "kubeVersion", Value: version}) {
			t.Errorf("testsuite %q has properties %v, want kubeVersion %s first", s.Name, s.Properties, version)
		}
	}
	if !strings.Contains(string(data), `<property name="kubeVersion" value="1.32"></property>`) {
		t.Errorf("no kubeVersion property in\n%s", data)
	}
}

// TestMatrixFailure checks that a version whose server does not start
// fails the run, says which, and shows in the table, while the other
// version's tests run and count.
func TestMatrixFailure(t *testing.T) {
	linkedUnderEveryLabel(t, 2, "1.33")
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", exampleDir, "--payload-dir", payloadDir, "--kube-version", "1.33,1.37", "--run", stableDefault}, &stdout, &stderr)
	out := stdout.String()
	m := summaryLine.FindStringSubmatch(lastLine(out))
	if code != exitFailed || m == nil || m[1] == "0" || m[2] != "1" {
		t.Fatalf("exit %d, want %d with tests passed and one failure\n%s%s", code, exitFailed, out, stderr.String())
	}
	if !strings.Contains(out, "FAIL  Kubernetes 1.33: starting the API server of Kubernetes 1.33: no program in this test\n") {
		t.Errorf("no failure line for 1.33:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^    total\s+0/1\s+` + m[1] + `/0$`).MatchString(out) {
		t.Errorf("the table's total row does not show 1.33 failed and 1.37 passed:\n%s", out)
	}
}

// TestTable checks the closing table's format on counts alone.
func TestTable(t *testing.T) {
	rep, _ := newReport(t.Context(), &bytes.Buffer{}, false)
	rep.matrix = true
	add := func(file, version string, passed, failed, skipped int) {
		g := &groupResult{version: version, suitePath: file}
		for range passed {
			rep.count(g, false, "")
		}
		for range failed {
			rep.count(g, true, "")
		}
		for range skipped {
			rep.count(g, false, "a reason")
		}
	}
	add("v1/tests/b.example.com/B.yaml", "1.30", 3, 0, 0)
	add("v1/tests/b.example.com/B.yaml", "1.37", 2, 1, 0)
	add("v1/tests/a.example.com/AAA_ungated.yaml", "1.30", 10, 0, 2)
	add("v1/tests/a.example.com/AAA_ungated.yaml", "1.37", 12, 0, 0)
	add("v1/tests/c.example.com/OnlyOn137.yaml", "1.37", 1, 0, 0)
	want := `apitest: tests passed/failed by suite file and Kubernetes version
    suite file                                          1.30  1.37
    v1/tests/a.example.com/AAA_ungated.yaml  10/0 +2 skipped  12/0
    v1/tests/b.example.com/B.yaml                        3/0   2/1
    v1/tests/c.example.com/OnlyOn137.yaml                  -   1/0
    total                                    13/0 +2 skipped  15/1
`
	if got := rep.table([]string{"1.30", "1.37"}); got != want {
		t.Errorf("table\n%s\nwant\n%s", got, want)
	}
}

// TestBuildOnly checks --build-only: each version's program is built or
// found, with its time, path and size; the linked one needs none; no
// suite is read and no server starts.
func TestBuildOnly(t *testing.T) {
	dir := t.TempDir()
	cached := map[string]bool{"1.33": true}
	buildProgram = func(ctx context.Context, v kubeversion.Version, opts kubeversion.BuildOptions) (string, error) {
		if v.Minor == "1.31" {
			return "", errors.New("cannot compile")
		}
		path := filepath.Join(dir, v.Minor, "apiserver")
		if !cached[v.Minor] {
			fmt.Fprintf(opts.Progress, "building the API server of Kubernetes %s\n", v.Minor)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
		return path, os.WriteFile(path, make([]byte, 3<<20), 0o755)
	}
	t.Cleanup(func() { buildProgram = kubeversion.Build })
	startAPIServer = func(context.Context, kubeversion.Version, kubeversion.Options) (*server.Server, error) {
		t.Error("a server started")
		return nil, errors.New("no server in this test")
	}
	t.Cleanup(func() { startAPIServer = kubeversion.Start })

	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", t.TempDir(), "--kube-version", "1.32,1.33,1.37", "--build-only"}, &stdout, &stderr)
	out := stdout.String()
	if code != exitPassed || lastLine(out) != "3 built, 0 failed" {
		t.Fatalf("exit %d\n%s%s", code, out, stderr.String())
	}
	if re := `(?m)^apitest: building the API server programs of Kubernetes 1\.32, 1\.33, 1\.37 \(--kube-version\)$`; !regexp.MustCompile(re).MatchString(stderr.String()) {
		t.Errorf("no line matching %s on standard error:\n%s", re, stderr.String())
	}
	for _, re := range []string{
		`(?m)^ok    1\.32: built in \d+(\.\d+)?m?s: ` + regexp.QuoteMeta(filepath.Join(dir, "1.32", "apiserver")) + ` \(3\.0 MiB\)$`,
		`(?m)^ok    1\.33: found in the cache in \d+(\.\d+)?m?s: ` + regexp.QuoteMeta(filepath.Join(dir, "1.33", "apiserver")) + ` \(3\.0 MiB\)$`,
		`(?m)^ok    1\.37: linked into apitest, runs in its process; nothing to build$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("no line matching %s in\n%s", re, out)
		}
	}
	stdout.Reset()
	if code := run(t.Context(), []string{"--base-dir", t.TempDir(), "--kube-version", "1.31-1.32", "--build-only"}, &stdout, &stderr); code != exitFailed ||
		lastLine(stdout.String()) != "1 built, 1 failed" || !strings.Contains(stdout.String(), "FAIL  1.31: cannot compile\n") {
		t.Errorf("a failed build: exit %d\n%s", code, stdout.String())
	}
}

// TestWarningsCaptured checks that the API server's warnings (the
// example's pruning tests send unknown fields) are kept per test: counted
// in the summary, shown under their test with -v and under a failing
// test, never as klog lines.
func TestWarningsCaptured(t *testing.T) {
	output := func(base string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args = append([]string{"--base-dir", base, "--payload-dir", payloadDir, "--kube-version", kubeversion.Linked, "--run", `Resource=stableconfigtypes\].*FeatureSet="Default".*/onCreate/Should prune coolNewField`}, args...)
		code := run(t.Context(), args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	const warning = `warning: unknown field "spec.coolNewField"`
	code, quiet, stderr := output(exampleDir)
	m := summaryLine.FindStringSubmatch(lastLine(quiet))
	if code != exitPassed || m == nil || m[1] != "1" {
		t.Fatalf("exit %d, want one test passed\n%s%s", code, quiet, stderr)
	}
	if strings.Contains(quiet, warning) || !strings.Contains(quiet, "apitest: 1 warning from the API server (shown under failing tests; -v shows every one)\n") {
		t.Errorf("quiet run: want the count and no warning line\n%s", quiet)
	}
	for _, out := range []string{quiet, stderr} {
		if strings.Contains(out, "warnings.go") || strings.Contains(out, "Warning:") {
			t.Errorf("a klog warning line:\n%s", out)
		}
	}
	_, verbose, _ := output(exampleDir, "-v")
	if !regexp.MustCompile(`(?m)^    --- ok: onCreate/Should prune coolNewField[^\n]*\n        ` + regexp.QuoteMeta(warning) + `\n`).MatchString(verbose) {
		t.Errorf("-v: no warning under its test\n%s", verbose)
	}

	// A failing test shows its warnings, without -v.
	base := copyDir(t, exampleDir)
	path := filepath.Join(base, "v1", "tests", "stableconfigtypes.example.openshift.io", "-Example.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "nonZeroDefault: 8", "nonZeroDefault: 9", 1)
	if err := os.WriteFile(path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, failing, _ := output(base)
	if code != exitFailed || !regexp.MustCompile(`(?m)^    --- FAIL: onCreate/Should prune coolNewField\n(        .*\n)+        `+regexp.QuoteMeta(warning)+`\n`).MatchString(failing) {
		t.Errorf("exit %d; want the warning under the failing test\n%s", code, failing)
	}
}

// TestOperatorRepositoryMatrix runs the operator repository fixture as
// committed, as `make apitest-operator-matrix` does in CI: --base-dir at
// the repository root, the suites (tests/<crd>/*.testsuite.yaml) and the
// pre-version payload (featuregates/) beside the generated CRDs in
// api/fleet/v1beta1, no configuration. It runs in one command on the
// linked release and on every release GATEDCRD_TEST_KUBE_VERSIONS names
// (1.32 in make test), whose programs kubeversion's TestProgramServes
// builds and caches.
func TestOperatorRepositoryMatrix(t *testing.T) {
	minors := strings.Fields(os.Getenv("GATEDCRD_TEST_KUBE_VERSIONS"))
	if !slices.Contains(minors, kubeversion.Linked) {
		minors = append(minors, kubeversion.Linked)
	}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", operatorRepoRoot, "--kube-version", strings.Join(minors, ",")}, &stdout, &stderr)
	out := stdout.String()
	if want := fmt.Sprintf("%d passed, 0 failed", len(minors)*preVersionTests); code != exitPassed || lastLine(out) != want {
		t.Fatalf("exit %d, last line %q; want %d and %q\n%s%s", code, lastLine(out), exitPassed, want, out, stderr.String())
	}
	if len(minors) == 1 {
		checkPayloadFileNamesDecide(t, out, "ok    ")
		return
	}
	for _, v := range minors {
		checkPayloadFileNamesDecide(t, out, "ok    "+v+" ")
	}
	total := regexp.MustCompile(`(?m)^    total +` + strings.Repeat(fmt.Sprintf(`%d/0 +`, preVersionTests), len(minors)-1) + fmt.Sprintf(`%d/0$`, preVersionTests))
	if !total.MatchString(out) {
		t.Errorf("no total row of %d/0 for each of %d versions in\n%s", preVersionTests, len(minors), out)
	}
}
