package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkipList skips one test of the example through a skip list, on the
// linked version, and checks the report; an entry naming no test of the
// run fails it; entries of other versions do not apply.
func TestSkipList(t *testing.T) {
	list := filepath.Join(t.TempDir(), "skip.yaml")
	write := func(text string) {
		if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const entry = `- suite: v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml
  kubeVersions: [%s]
  tests:
  - onCreate/Should require immutableField
  reason: the server cannot do it
`
	// run1 returns the results (standard output).
	run1 := func() string {
		var stdout, stderr bytes.Buffer
		run(t.Context(), []string{"--base-dir", exampleDir, "--payload-dir", payloadDir, "--kube-version", "1.37", "--skip", list,
			"--run", `stableconfigtypes\].*FeatureSet="Default".*\] StableConfigType/`}, &stdout, &stderr)
		return stdout.String()
	}
	write(strings.Replace(entry, "%s", `"1.37"`, 1))
	out := run1()
	for _, want := range []string{
		"--- SKIP: onCreate/Should require immutableField: the server cannot do it (" + list + ":1)",
		"apitest: 1 tests skipped by " + list,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output does not contain %q:\n%s", want, out)
		}
	}
	if m := summaryLine.FindStringSubmatch(lastLine(out)); m == nil || m[2] != "0" {
		t.Errorf("last line %q", lastLine(out))
	}

	write(strings.Replace(entry, "%s", `"1.32"`, 1))
	if out := run1(); strings.Contains(out, "SKIP") {
		t.Errorf("an entry for 1.32 applied on 1.37:\n%s", out)
	}

	write(strings.Replace(strings.Replace(entry, "%s", "", 1), "Should require", "Should no longer require", 1))
	if out := run1(); !strings.Contains(out, list+":1: the skip list names onCreate/Should no longer require immutableField of v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml, which is not a test of the run") {
		t.Errorf("a stale entry was not reported:\n%s", out)
	}
}

func TestSkipListErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"- suite: a.yaml\n  tests: [onCreate/x]\n", "s.yaml:1: an entry needs reason:"},
		{"- suite: a.yaml\n  reason: r\n", "s.yaml:1: an entry needs tests:"},
		{"- tests: [onCreate/x]\n  reason: r\n", "s.yaml:1: an entry needs suite:"},
		{"- suite: a.yaml\n  tests: [x]\n  reason: r\n", `s.yaml:2: test "x" is not onCreate/<test name>`},
		{"- suite: a.yaml\n  tests: [onCreate/x]\n  reason: r\n  kubeVersions: [\"1.20\"]\n", `s.yaml:4: kubeVersions: unsupported Kubernetes version "1.20"`},
		{"- suite: a.yaml\n  test: [onCreate/x]\n", "s.yaml:2: test: unknown key; known keys are kubeVersions, reason, suite, tests"},
		{"- suite: a.yaml\n  suite: b.yaml\n", "s.yaml:2: suite: is given twice (first on line 1)"},
		{"- suite: [a.yaml]\n", "s.yaml:1: suite: must be a string, not a list"},
		{"suite: a.yaml\n", "s.yaml:1: must be a list of entries with suite, tests, kubeVersions and reason, not a mapping"},
		{"- suite: a.yaml\n  tests: [\n", "s.yaml:2: invalid YAML: "},
	} {
		path := filepath.Join(t.TempDir(), "s.yaml")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readSkipList(path, "1.32")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}
