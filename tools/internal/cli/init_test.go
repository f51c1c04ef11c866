package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
)

// TestInit: init turns a repository without configuration into one that
// opts in to every check and still passes: today's strict findings go
// into the baseline, today's historic GA levels into exceptions, and a
// check that would fail is written commented out.
func TestInit(t *testing.T) {
	dir := exampleTree(t, true)
	types := filepath.Join(dir, "example/v1/types_stable.go")
	edit(t, types, "// StableConfigType is a stable,", "// +kubebuilder:Required\n// StableConfigType is a stable,")
	edit(t, types, "// +openshift:compatibility-gen:level=1\n", "// +openshift:compatibility-gen:level=2\n")
	mustRun(t, "compatibility", "--base-dir", dir) // a warning without configuration
	mustRun(t, "crd-manifests", "--base-dir", dir)
	before := testtree.Snapshot(t, dir)

	mustRun(t, "init", "--base-dir", dir)
	cfg := readFile(t, filepath.Join(dir, ".gatedcrd.yaml"))
	for _, want := range []string{
		"# .codegen-baseline.yaml accepts the 1 found when this file was written.\nstrictMarkers: true\n",
		"referenceEra: \"2026-03-20\"\n",
		"# (k8s.io/apimachinery v0.37.0 in ",
		"\nkubeVersion: \"1.37\"\n",
		"\nrequiredAnnotations:\n  groupSuffix: .openshift.io\n  annotations: [api-approved.openshift.io]\n",
		"\ncompatibility:\n  # GA types that keep a historic level.\n  exceptions:\n  - example/v1.StableConfigType\n",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf(".gatedcrd.yaml lacks %q:\n%s", want, cfg)
		}
	}
	if b := readFile(t, filepath.Join(dir, baseline.FileName)); !strings.Contains(b, "marker: +kubebuilder:Required") {
		t.Errorf("baseline lacks today's finding:\n%s", b)
	}
	after := testtree.Snapshot(t, dir)
	delete(after, ".gatedcrd.yaml")
	delete(after, baseline.FileName)
	sameFiles(t, "init wrote more than its two files", before, after)

	// Opted in, the tree passes as it is, and a new finding is an error.
	mustRun(t, "crd-manifests", "--base-dir", dir, "--verify")
	mustRun(t, "compatibility", "--base-dir", dir, "--verify")
	edit(t, types, "// StableConfigType is a stable,", "// +kubebuilder:Optionl\n// StableConfigType is a stable,")
	if code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify"); code != ExitInput || !errorLineContains(stderr, "+kubebuilder:Optionl") {
		t.Fatalf("new finding after init: exit %d\n%s", code, stderr)
	}

	// A second init leaves the configuration alone.
	if code, stderr := codegen(t, "init", "--base-dir", dir); code != ExitInput || !strings.Contains(stderr, "already exists") {
		t.Fatalf("second init: exit %d\n%s", code, stderr)
	}
}

// TestInitCommentsOutFailingChecks: a check with findings today is written
// commented out, with their number, so that the tree keeps passing.
func TestInitCommentsOutFailingChecks(t *testing.T) {
	dir := exampleTree(t, true)
	types := filepath.Join(dir, "example/v1/types_stable.go")
	edit(t, types, `rule="self == oldSelf",message="immutableField is immutable"`, `rule="self ==",message="immutableField is immutable"`)
	edit(t, types, "// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/1\n", "")
	mustRun(t, "crd-manifests", "--base-dir", dir)
	mustRun(t, "init", "--base-dir", dir)
	cfg := readFile(t, filepath.Join(dir, ".gatedcrd.yaml"))
	for _, want := range []string{
		"finding(s) today; fix them, then remove the '#':\n# kubeVersion: \"1.37\"\n",
		"finding(s) today; fix them, then remove the '#':\n# requiredAnnotations:\n",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf(".gatedcrd.yaml lacks %q:\n%s", want, cfg)
		}
	}
	mustRun(t, "crd-manifests", "--base-dir", dir, "--verify")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
