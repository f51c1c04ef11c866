package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestTestSuitesOnOperatorRepository: the operator repository fixture
// names its suites <X>.testsuite.yaml, as operator repositories do.
// test-suites --verify
// accepts it as it is and writes nothing; with one suite gone it names
// that one, and without --verify writes its stub under the same name,
// after which --verify passes again.
func TestTestSuitesOnOperatorRepository(t *testing.T) {
	dir := testtree.Copy(t, "../e2e/testdata/operatorrepo/api")
	before := testtree.Snapshot(t, dir)
	if code, stderr := codegen(t, "test-suites", "--base-dir", dir, "--verify"); code != ExitOK || stderr != "" {
		t.Fatalf("test-suites --verify: exit %d, want 0 and no output\n%s", code, stderr)
	}
	if code, stderr := codegen(t, "test-suites", "--base-dir", dir); code != ExitOK || stderr != "" {
		t.Fatalf("test-suites: exit %d, want 0 and no output\n%s", code, stderr)
	}
	sameFiles(t, "after the runs", before, testtree.Snapshot(t, dir))

	const suite = "fleet/v1beta1/tests/controlplanes.fleet.example.com/ExternalDNSProvider.testsuite.yaml"
	if err := os.Remove(filepath.Join(dir, suite)); err != nil {
		t.Fatal(err)
	}
	code, stderr := codegen(t, "test-suites", "--base-dir", dir, "--verify")
	if code != ExitStale || !strings.Contains(stderr, "1 partial manifest(s) have no API test suite") || !strings.HasSuffix(stderr, "\n  "+suite+"\n") {
		t.Fatalf("test-suites --verify without %s: exit %d, want %d naming it alone\n%s", suite, code, ExitStale, stderr)
	}
	if code, stderr := codegen(t, "test-suites", "--base-dir", dir); code != ExitOK || stderr != "wrote stub "+suite+"\n" {
		t.Fatalf("test-suites: exit %d, want 0 and the stub written\n%s", code, stderr)
	}
	mustRun(t, "test-suites", "--base-dir", dir, "--verify")
}

// TestTreeWithoutSuites: a repository that never ran test-suites (no
// tests/ directory) passes the reference's commands with --verify, and
// crd-manifests --verify; only test-suites --verify names what is
// missing, and test-suites writes <X>.yaml stubs, as a tree without
// suites has no other name to follow.
func TestTreeWithoutSuites(t *testing.T) {
	dir := exampleTree(t, true)
	for _, v := range []string{"v1", "v1alpha1"} {
		if err := os.RemoveAll(filepath.Join(dir, "example", v, "tests")); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"empty-partial-schemas", "schemapatch", "crd-manifest-merge", "crd-manifests"} {
		if code, stderr := codegen(t, cmd, "--base-dir", dir, "--verify"); code != ExitOK {
			t.Errorf("%s --verify without suites: exit %d, want 0\n%s", cmd, code, stderr)
		}
	}
	code, stderr := codegen(t, "test-suites", "--base-dir", dir, "--verify")
	if code != ExitStale || !strings.Contains(stderr, "\n  example/v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml\n") {
		t.Errorf("test-suites --verify without suites: exit %d, want %d naming AAA_ungated.yaml\n%s", code, ExitStale, stderr)
	}
	mustRun(t, "test-suites", "--base-dir", dir)
	if _, err := os.Stat(filepath.Join(dir, "example/v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml")); err != nil {
		t.Errorf("no plain stub: %v", err)
	}
	mustRun(t, "test-suites", "--base-dir", dir, "--verify")
}
