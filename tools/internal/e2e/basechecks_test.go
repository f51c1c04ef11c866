package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestAPIRepoBaseChecks commits the openshift/api-shaped fixture to a git
// repository and runs codegen crdify and codegen schemacheck against that
// commit, as the reference's verify-crdify.sh and
// verify-crd-schema-checker.sh do: both pass on the committed tree, fail
// (exit 1) naming the variants (every tuple: the fixture has only Default)
// and the field once the CRD loses a field in
// the work tree, and exit 3 for a revision the repository lacks.
func TestAPIRepoBaseChecks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := buildCodegen(t)
	dir := apiRepoCopy(t)
	for _, args := range [][]string{
		{"init", "-q"}, {"add", "-A"},
		{"-c", "user.email=t@example.io", "-c", "user.name=t", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "base"},
	} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run := func(check, base string) (int, string) {
		return codegenIn(t, bin, dir, check, "--base-dir", ".", "-v", "1", "--"+check+":comparison-base="+base)
	}
	for _, check := range []string{"crdify", "schemacheck"} {
		if code, out := run(check, "HEAD"); code != 0 {
			t.Fatalf("%s on the committed tree exited %d:\n%s", check, code, out)
		}
	}
	removeDiameter(t, filepath.Join(dir, apiCRD))
	for check, name := range map[string]string{"crdify": "existingFieldRemoval", "schemacheck": "NoFieldRemoval"} {
		code, out := run(check, "HEAD")
		want := name + " v1 ^.spec.diameter: removed field"
		if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "in every tuple (4)") {
			t.Errorf("%s after removing a field: exit %d, want 1 with %q in every variant (the fixture has Default alone):\n%s", check, code, want, out)
		}
		if code, out := run(check, "nosuchref"); code != 3 || !strings.Contains(out, "nosuchref is not a revision") {
			t.Errorf("%s against a missing revision: exit %d, want 3 naming it:\n%s", check, code, out)
		}
	}
}

// removeDiameter deletes spec.diameter from every version of a CRD file.
func removeDiameter(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	for _, v := range crd["spec"].(map[string]any)["versions"].([]any) {
		schema := v.(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)
		spec := schema["properties"].(map[string]any)["spec"].(map[string]any)
		delete(spec["properties"].(map[string]any), "diameter")
		if req, ok := spec["required"].([]any); ok {
			var kept []any
			for _, r := range req {
				if r != "diameter" {
					kept = append(kept, r)
				}
			}
			spec["required"] = kept
		}
	}
	out, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
