package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCELCostsReport: --cel-costs=N prints, per CRD, its total and its N
// most expensive expressions with their budget shares and Go positions;
// --cel-costs alone means 5.
func TestCELCostsReport(t *testing.T) {
	dir := exampleTree(t, true)
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--cel-costs=1")
	if code != ExitOK {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	header := regexp.MustCompile(`(?m)^CEL cost of stableconfigtypes\.example\.openshift\.io: total \d+ \(\d+\.\d\d% of the 100000000 per-CRD budget\)$`)
	entry := regexp.MustCompile(`(?m)^  1\. v1 \S+ x-kubernetes-validations\[\d+\]\.(rule|messageExpression): cost \d+ \(\d+\.\d\d% of the per-rule budget, \d+\.\d\d% of the per-CRD budget\) at example/v1/types_stable\.go:\d+$`)
	if !header.MatchString(stderr) || !entry.MatchString(stderr) {
		t.Fatalf("no cost report of stableconfigtypes:\n%s", stderr)
	}
	if strings.Contains(stderr, "  2. v1 ") {
		t.Errorf("--cel-costs=1 listed a second expression:\n%s", stderr)
	}
	code, stderr = codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--cel-costs")
	if code != ExitOK || !strings.Contains(stderr, "  2. v1 ") {
		t.Fatalf("--cel-costs alone: exit %d:\n%s", code, stderr)
	}
}

// TestKubeVersionChoice: an explicit unsupported or malformed release is a
// usage error; a configured unsupported one is bad configuration; an
// inferred one is a warning, and the CRDs are not validated.
func TestKubeVersionChoice(t *testing.T) {
	dir := exampleTree(t, true)
	for _, tc := range []struct {
		version string
		want    string
	}{
		{"1.29", `error: --kube-version: unsupported Kubernetes version "1.29": supported are`},
		{"one", `error: --kube-version: "one" is not a Kubernetes release`},
	} {
		code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--kube-version", tc.version)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("--kube-version %s: exit %d, want %d and %q:\n%s", tc.version, code, ExitUsage, tc.want, stderr)
		}
	}
	// The linked release validates in process, without a program.
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--kube-version", "1.37")
	if code != ExitOK || !strings.Contains(stderr, "validated as Kubernetes 1.37 does") || strings.Contains(stderr, "building the CRD validation") {
		t.Fatalf("--kube-version 1.37: exit %d:\n%s", code, stderr)
	}
	// A go.mod of its own (merge only: the example's packages do not load
	// in this module) names an unsupported release.
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/api\n\ngo 1.26\n\nrequire k8s.io/apimachinery v0.29.3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr = codegen(t, "crd-manifest-merge", "--base-dir", dir, "--verify")
	want := `warning: .: Kubernetes 1.29 (k8s.io/apimachinery v0.29.3 in go.mod): unsupported Kubernetes version "1.29": supported are`
	if code != ExitOK || !strings.Contains(stderr, want) || strings.Contains(stderr, "validated as Kubernetes 1.29 does (") && strings.Contains(stderr, "finding(s)") {
		t.Fatalf("inferred 1.29: exit %d, want a warning %q:\n%s", code, want, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gatedcrd.yaml"), []byte("kubeVersion: \"1.29\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr = codegen(t, "crd-manifest-merge", "--base-dir", dir, "--verify")
	want = `error: .gatedcrd.yaml:1: kubeVersion: unsupported Kubernetes version "1.29": supported are`
	if code != ExitInput || !strings.Contains(stderr, want) {
		t.Fatalf("configured 1.29: exit %d, want %d and %q:\n%s", code, ExitInput, want, stderr)
	}
}
