package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
)

// TestStrictBaseline walks a team through adopting strict mode: an old
// finding fails strict runs until strict-baseline accepts it; the baseline
// survives line moves; a new finding fails; a fixed one leaves a stale
// entry that is reported.
func TestStrictBaseline(t *testing.T) {
	dir := exampleTree(t, true)
	types := filepath.Join(dir, "example/v1/types_stable.go")
	const old = "+kubebuilder:Required"
	edit(t, types, "// StableConfigType is a stable,", "// "+old+"\n// StableConfigType is a stable,")
	verify := []string{"crd-manifests", "--base-dir", dir, "--verify"}
	// Without configuration or baseline the finding is a warning.
	if code, stderr := codegen(t, verify...); code != ExitOK || !strings.Contains(stderr, "warning: example/v1/types_stable.go:13: "+old) {
		t.Fatalf("run without configuration: exit %d\n%s", code, stderr)
	}
	if code, stderr := codegen(t, append(verify, "--strict-markers")...); code != ExitInput || !strings.Contains(stderr, "error: example/v1/types_stable.go:13: "+old) {
		t.Fatalf("strict run without baseline: exit %d\n%s", code, stderr)
	}

	before := testtree.Snapshot(t, dir)
	mustRun(t, "strict-baseline", "--base-dir", dir)
	after := testtree.Snapshot(t, dir)
	delete(after, baseline.FileName)
	sameFiles(t, "strict-baseline wrote more than the baseline", before, after)
	data, err := os.ReadFile(filepath.Join(dir, baseline.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "- file: example/v1/types_stable.go\n    marker: +kubebuilder:Required\n") {
		t.Errorf("baseline lacks the finding:\n%s", data)
	}
	// The baseline is the opt-in: runs are strict from here on.
	if code, stderr := codegen(t, verify...); code != ExitOK || !strings.Contains(stderr, "1 strict-mode finding(s) accepted by "+baseline.FileName) {
		t.Fatalf("strict run with baseline: exit %d\n%s", code, stderr)
	}

	// Lines move: still accepted.
	edit(t, types, "package v1\n", "package v1\n\n// Moved down by this comment.\n")
	mustRun(t, verify...)

	// A new finding fails, naming it; the old one stays accepted.
	edit(t, types, "// StableConfigType is a stable,", "// +kubebuilder:Optionl\n// StableConfigType is a stable,")
	code, stderr := codegen(t, verify...)
	if code != ExitInput || !strings.Contains(stderr, "+kubebuilder:Optionl: is not a marker") || strings.Contains(stderr, "error: example/v1/types_stable.go:15: "+old) {
		t.Fatalf("new finding: exit %d\n%s", code, stderr)
	}
	edit(t, types, "// +kubebuilder:Optionl\n", "")

	// Fixing the old finding leaves a stale entry, reported as a warning.
	edit(t, types, "// "+old+"\n", "")
	code, stderr = codegen(t, verify...)
	if want := "warning: " + baseline.FileName + ": stale entry: example/v1/types_stable.go: " + old + " (1 occurrence(s)) matches no finding any more"; code != ExitOK || !strings.Contains(stderr, want) {
		t.Fatalf("stale entry: exit %d, want 0 and %q\n%s", code, want, stderr)
	}
	// Without strict mode the baseline plays no part.
	if code, stderr := codegen(t, append(verify, "--strict-markers=false")...); code != ExitOK || strings.Contains(stderr, "stale") {
		t.Fatalf("non-strict: exit %d\n%s", code, stderr)
	}
}

// TestBrokenBaselineIsBadInput: a baseline that does not parse fails the
// strict run with its file and line and writes nothing.
func TestBrokenBaselineIsBadInput(t *testing.T) {
	dir := exampleTree(t, true)
	testtree.Add(t, dir, map[string]string{baseline.FileName: "findings:\n- file: a.go\n  line: 3\n"})
	code, stderr := codegen(t, "crd-manifests", "--base-dir", dir)
	if code != ExitInput || !strings.Contains(stderr, baseline.FileName+":3: findings[0].line: unknown key") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}
