package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestPackagesWithoutCRDsMayDisagreeWithTheirDirectory: openshift/api has
// an image/docker10 package of version "1.0" and a legacyconfig/v1 package
// whose +groupName disagrees with its empty Group, neither with a CRD root
// type. The reference accepts them, so gatedcrd must generate the tree's
// CRDs as if they were not there, in strict mode too.
func TestPackagesWithoutCRDsMayDisagreeWithTheirDirectory(t *testing.T) {
	dir := exampleTree(t, true)
	testtree.Add(t, dir, map[string]string{
		"example/docker10/doc.go": "// +groupName=example.openshift.io\npackage docker10\n",
		"example/docker10/register.go": "package docker10\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n" +
			"var GroupVersion = schema.GroupVersion{Group: \"example.openshift.io\", Version: \"1.0\"}\n\ntype Image struct{ Name string }\n",
		"legacy/v1/doc.go": "// +groupName=legacy.example.openshift.io\npackage v1\n",
		"legacy/v1/register.go": "package v1\n\nimport \"k8s.io/apimachinery/pkg/runtime/schema\"\n\n" +
			"var GroupVersion = schema.GroupVersion{Group: \"\", Version: \"v1\"}\n",
	})
	before := testtree.Snapshot(t, dir)
	for _, args := range [][]string{
		{"crd-manifests", "--base-dir", dir},
		{"crd-manifests", "--base-dir", dir, "--verify"},
		{"test-suites", "--base-dir", dir, "--verify"},
	} {
		code, stderr := codegen(t, args...)
		if code != ExitOK || strings.Contains(stderr, "docker10") || strings.Contains(stderr, "legacy") {
			t.Errorf("codegen %s: exit %d, want 0 without a word about the packages\n%s", strings.Join(args[:1], " "), code, stderr)
		}
	}
	sameFiles(t, "after the runs", before, testtree.Snapshot(t, dir))

	// The same mismatch in a package with CRD types is an error.
	edit(t, filepath.Join(dir, "example/v1/register.go"), `Version: "v1"}`, `Version: "v2"}`)
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir)
	if want := `example/v1/register.go:15: GroupVersion: declares version "v2" but the package directory is "v1"`; code != ExitInput || !strings.Contains(stderr, want) {
		t.Errorf("mismatch in a CRD package: exit %d, want %d and %q\n%s", code, ExitInput, want, stderr)
	}
}

// TestUnknownFilePatternArgument: openshift/api writes
// +openshift:file-pattern=...,operatorComponent=two-node-fencing. Strict
// mode reports it; without it (no configuration) it is a warning and the
// run generates what the reference does, i.e. the files without the argument.
func TestUnknownFilePatternArgument(t *testing.T) {
	dir := exampleTree(t, true)
	types := filepath.Join(dir, "example/v1/types_stable.go")
	edit(t, types, "operatorOrdering=01\n", "operatorOrdering=01,operatorComponent=two-node-fencing\n")
	before := testtree.Snapshot(t, dir)
	const finding = `example/v1/types_stable.go:8: +openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=01,operatorComponent=two-node-fencing: unknown argument "operatorComponent" of +openshift:file-pattern`

	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--strict-markers")
	if code != ExitInput || !strings.Contains(stderr, "error: "+finding) {
		t.Errorf("strict: exit %d, want %d and the error %q\n%s", code, ExitInput, finding, stderr)
	}
	for _, args := range [][]string{
		{"crd-manifests", "--base-dir", dir},
		{"crd-manifests", "--base-dir", dir, "--verify"},
	} {
		code, stderr := codegen(t, args...)
		if code != ExitOK || !strings.Contains(stderr, "warning: "+finding) {
			t.Errorf("codegen %s: exit %d, want 0 and the warning %q\n%s", strings.Join(args[3:], " "), code, finding, stderr)
		}
	}
	sameFiles(t, "after the runs", before, testtree.Snapshot(t, dir))
}

// TestUnknownCodegenYAMLKey: the reference ignores keys of .codegen.yaml
// it does not know; gatedcrd reports them, as errors only in strict mode.
func TestUnknownCodegenYAMLKey(t *testing.T) {
	dir := exampleTree(t, true)
	testtree.Add(t, dir, map[string]string{"example/.codegen.yaml": "schemapatch:\n  disabled: false\nsomeOtherGenerator:\n  enabled: true\n"})
	const finding = "example/.codegen.yaml:3: someOtherGenerator: unknown key"
	if code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--strict-markers"); code != ExitInput || !strings.Contains(stderr, "error: "+finding) {
		t.Errorf("strict: exit %d, want %d and the error %q\n%s", code, ExitInput, finding, stderr)
	}
	if code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify"); code != ExitOK || !strings.Contains(stderr, "warning: "+finding) {
		t.Errorf("non-strict: exit %d, want 0 and the warning %q\n%s", code, finding, stderr)
	}
	if code, stderr := codegen(t, "test-suites", "--base-dir", dir, "--verify"); code != ExitOK {
		t.Errorf("test-suites non-strict: exit %d, want 0\n%s", code, stderr)
	}
}

// TestUnknownGateAwareArgument: an argument a FeatureGate-aware marker does
// not have (controller-tools, and with it the reference, reject the whole
// package) is a strict finding; without strict mode it is a warning and
// the marker applies with the arguments it has: the committed
// output, generated without the extra arguments, stays up to date.
func TestUnknownGateAwareArgument(t *testing.T) {
	dir := exampleTree(t, true)
	types := filepath.Join(dir, "example/v1/types_stable.go")
	edit(t, types, `message="coolNewField cannot be removed once set"`, `message="coolNewField cannot be removed once set",severity=Warning`)
	edit(t, types, `featureGate=Example,maxItems=3`, `since=4.18,featureGate=Example,maxItems=3`)
	edit(t, types, `featureGate="",enum="";StableValue`+"\n", `featureGate="",enum="";StableValue,owner="team a, b"`+"\n")
	before := testtree.Snapshot(t, dir)
	findings := []string{
		`example/v1/types_stable.go:42: +openshift:validation:FeatureGateAwareXValidation:featureGate=Example,rule="has(oldSelf.coolNewField) ? has(self.coolNewField) : true",message="coolNewField cannot be removed once set",severity=Warning: unknown argument "severity" of +openshift:validation:FeatureGateAwareXValidation`,
		`example/v1/types_stable.go:77: +openshift:validation:FeatureGateAwareMaxItems:since=4.18,featureGate=Example,maxItems=3: unknown argument "since" of +openshift:validation:FeatureGateAwareMaxItems`,
		`example/v1/types_stable.go:116: +openshift:validation:FeatureGateAwareEnum:featureGate="",enum="";StableValue,owner="team a, b": unknown argument "owner" of +openshift:validation:FeatureGateAwareEnum`,
	}
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir, "--verify", "--strict-markers")
	for _, f := range findings {
		if code != ExitInput || !strings.Contains(stderr, "error: "+f) {
			t.Errorf("strict: exit %d, want %d and the error %q\n%s", code, ExitInput, f, stderr)
		}
	}
	for _, args := range [][]string{
		{"crd-manifests", "--base-dir", dir, "--verify"},
		{"crd-manifests", "--base-dir", dir},
	} {
		code, stderr := codegen(t, args...)
		for _, f := range findings {
			if code != ExitOK || !strings.Contains(stderr, "warning: "+f) {
				t.Errorf("codegen %s: exit %d, want 0 and the warning %q\n%s", strings.Join(args[3:], " "), code, f, stderr)
			}
		}
	}
	sameFiles(t, "after the runs", before, testtree.Snapshot(t, dir))
}
