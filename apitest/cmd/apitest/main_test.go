package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const (
	exampleDir = "../../../example"
	payloadDir = "../../../payload-manifests/featuregates"
)

// parseFlags resolves a command line as run does, without running it.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	var cfg *config
	cmd := newCommand(func(c *config) { cfg = c })
	cmd.SetArgs(args)
	cmd.SetOut(stderr)
	cmd.SetErr(stderr)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// lastLine returns the last line of the output.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	return lines[len(lines)-1]
}

var summaryLine = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)

// TestExampleSuitesPass runs the example's suites through the command, on
// the linked version (in this process), with a JUnit file.
func TestExampleSuitesPass(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "junit.xml")
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", exampleDir, "--payload-dir", payloadDir, "--kube-version", "1.37", "--junit", junit}, &stdout, &stderr)
	out := stdout.String()
	if code != exitPassed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitPassed, out, stderr.String())
	}
	m := summaryLine.FindStringSubmatch(lastLine(out))
	if m == nil || m[2] != "0" || m[1] == "0" {
		t.Fatalf("last line %q, want \"N passed, 0 failed\"", lastLine(out))
	}
	if !strings.Contains(out, "ok    [example.openshift.io/v1, Resource=stableconfigtypes]") {
		t.Errorf("no progress line for a stableconfigtypes pair:\n%s", out)
	}
	data, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the JUnit file does not parse: %v", err)
	}
	if want := m[1]; strconv.Itoa(doc.Tests) != want || doc.Failures != 0 {
		t.Errorf("JUnit counts %d tests, %d failures; the summary says %s passed", doc.Tests, doc.Failures, want)
	}
	cases := 0
	for _, s := range doc.Suites {
		cases += len(s.Cases)
		for _, c := range s.Cases {
			if !strings.HasPrefix(c.Name, "onCreate/") && !strings.HasPrefix(c.Name, "onUpdate/") {
				t.Errorf("testcase %q of %q is not onCreate/... or onUpdate/...", c.Name, s.Name)
			}
		}
	}
	if strconv.Itoa(cases) != m[1] {
		t.Errorf("%d testcases, want %s", cases, m[1])
	}
}

// TestFailuresAndFilter breaks one expectation of a copy of the example's
// suites and runs only the tests of that suite file's pairs.
func TestFailuresAndFilter(t *testing.T) {
	base := copyDir(t, exampleDir)
	suitePath := filepath.Join(base, "v1", "tests", "stableconfigtypes.example.openshift.io", "AAA_ungated.yaml")
	data, err := os.ReadFile(suitePath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	const from, to = "immutableField: foo", "immutableField: bar"
	i := strings.LastIndex(text, from) // in the last expected object
	if i < 0 {
		t.Fatalf("%s has no %q", suitePath, from)
	}
	broken := text[:i] + to + text[i+len(from):]
	if err := os.WriteFile(suitePath, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(broken[:i], "\n") + 1

	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", base, "--payload-dir", payloadDir, "--run", `Resource=stableconfigtypes\].*FeatureSet="Default"`}, &stdout, &stderr)
	out := stdout.String()
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFailed, out, stderr.String())
	}
	m := summaryLine.FindStringSubmatch(lastLine(out))
	if m == nil || m[2] == "0" {
		t.Fatalf("last line %q, want failures", lastLine(out))
	}
	if strings.Contains(out, "TechPreviewNoUpgrade") || strings.Contains(out, "Resource=notstableconfigtypes") {
		t.Errorf("--run did not filter:\n%s", out)
	}
	if !strings.Contains(out, "FAIL  [example.openshift.io/v1, Resource=stableconfigtypes]") || !strings.Contains(out, "    --- FAIL: on") {
		t.Errorf("no FAIL lines:\n%s", out)
	}
	// The failure is somewhere at or above the changed line (the
	// expected: field of the test).
	at := regexp.MustCompile(regexp.QuoteMeta(suitePath) + `:(\d+): `).FindStringSubmatch(out)
	if at == nil {
		t.Fatalf("no failure names %s:<line>:\n%s", suitePath, out)
	}
	if n, _ := strconv.Atoi(at[1]); n > line || n < line-30 {
		t.Errorf("failure at line %d, the change is at line %d", n, line)
	}
	if !strings.Contains(out, "-   immutableField: bar") || !strings.Contains(out, "+   immutableField: foo") {
		t.Errorf("no diff showing the expected value:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--kube-version", "1.29"}, "unsupported Kubernetes version \"1.29\""},
		{[]string{"--run", "("}, "--run:"},
		{[]string{"extra"}, `unknown command "extra" for "apitest"`},
		{[]string{"--no-such-flag"}, "error: unknown flag: --no-such-flag\nrun 'apitest --help' for usage\n"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), exitUsage, tc.want)
		}
	}
}

// TestKubeVersionFromRepositoryConfiguration checks where the version
// comes from: --kube-version, else kubeVersion of the base directory's
// .gatedcrd.yaml, else (no go.mod above the copy) the linked version.
// --run matches no test, so no server starts. TestKubeVersionChoice
// covers the go.mod and the fallbacks.
func TestKubeVersionFromRepositoryConfiguration(t *testing.T) {
	base := copyDir(t, exampleDir)
	config := filepath.Join(base, ".gatedcrd.yaml")
	first := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args = append([]string{"--base-dir", base, "--payload-dir", payloadDir, "--run", "^no test$"}, args...)
		code := run(t.Context(), args, &stdout, &stderr)
		line, _, _ := strings.Cut(stderr.String(), "\n")
		return code, line, stderr.String()
	}
	if _, line, _ := first(); !strings.Contains(line, "on Kubernetes 1.37 (the release this build links;") {
		t.Errorf("without configuration: %q", line)
	}
	if err := os.WriteFile(config, []byte("# the release our clusters run\nkubeVersion: \"1.37\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, line, _ := first(); !strings.Contains(line, "on Kubernetes 1.37 (kubeVersion of "+config+":2;") {
		t.Errorf("with kubeVersion 1.37 in %s: %q", config, line)
	}
	if err := os.WriteFile(config, []byte("kubeVersion: \"1.29\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := first(); code != exitInput || !strings.Contains(stderr, "error: kubeVersion of "+config+`:1: unsupported Kubernetes version "1.29"`) {
		t.Errorf("with kubeVersion 1.29: exit %d, stderr %q", code, stderr)
	}
	if code, line, _ := first("--kube-version", "1.37"); code == exitInput || !strings.Contains(line, "(--kube-version;") {
		t.Errorf("--kube-version decides over the configuration: exit %d, %q", code, line)
	}
	if err := os.WriteFile(config, []byte("kubeVersion: v1.32\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := first(); code != exitInput || !strings.Contains(stderr, "error: "+config+`:1: kubeVersion: "v1.32" is not a Kubernetes release`) {
		t.Errorf("with a malformed kubeVersion: exit %d, stderr %q", code, stderr)
	}
}

// TestLenientAndStrict checks that a suite file with the defects
// openshift/api's runner accepts is run with a warning naming its file and
// line, and rejected with --strict.
func TestLenientAndStrict(t *testing.T) {
	base := copyDir(t, exampleDir)
	path := filepath.Join(base, "v1", "tests", "stableconfigtypes.example.openshift.io", "Defects.yaml")
	text := `crdName: stableconfigtypes.example.openshift.io
featureGate: [Example]
tests:
  onCreate:
  - name: twice
    initial: 'kind: StableConfigType'
    expectedError: "spec: Required value"
  - name: twice
    initial: 'kind: StableConfigType'
    expectedError: "spec: Required value"
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	output := func(args ...string) (string, string) {
		var stdout, stderr bytes.Buffer
		args = append([]string{"--base-dir", base, "--payload-dir", payloadDir, "--kube-version", "1.37", "--run", "Defects"}, args...)
		run(t.Context(), args, &stdout, &stderr)
		return stdout.String(), stderr.String()
	}
	out, diagnostics := output("--run", `\] Defects/`)
	for _, want := range []string{
		"warning: " + path + `:2: unknown field "featureGate" in the suite; did you mean "featureGates"?`,
		"warning: " + path + `:8: onCreate test: test name "twice" is used twice (first on line 5); both run`,
	} {
		if !strings.Contains(diagnostics, want) {
			t.Errorf("lenient run: standard error does not contain %q:\n%s", want, diagnostics)
		}
	}
	// Without its gate requirement the suite runs against every CRD file
	// of its crdName, each test twice.
	if m := summaryLine.FindStringSubmatch(lastLine(out)); m == nil || m[2] != "0" || m[1] == "0" || !strings.Contains(out, `[FeatureSet="Default"]`) {
		t.Errorf("lenient run:\n%s", out)
	}
	out, diagnostics = output("--strict", "--run", `\] Defects/`)
	if !strings.Contains(out, "FAIL  "+path+`:2: unknown field "featureGate"`) || strings.Contains(out+diagnostics, "warning:") ||
		lastLine(out) != "0 passed, 2 failed" {
		t.Errorf("strict run:\n%s", out)
	}
}

// TestNoSuites fails: a run that tests nothing proves nothing.
func TestNoSuites(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"--base-dir", t.TempDir(), "--payload-dir", payloadDir}, &stdout, &stderr)
	if code != exitFailed || lastLine(stdout.String()) != "0 passed, 1 failed" || !strings.Contains(stdout.String(), "no suite below") {
		t.Errorf("exit %d, output\n%s", code, stdout.String())
	}
}

func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "tree")
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}
