package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codegenOut runs the command in-process and returns its exit status,
// stdout and stderr.
func codegenOut(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run("test", args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCompat(t *testing.T) {
	old := exampleTree(t, true)
	cur := exampleTree(t, true)

	code, out, stderr := codegenOut(t, "compat", "--base-dir", cur, "--base-dir-old", old)
	if code != ExitOK || !strings.Contains(out, "0 breaking") {
		t.Fatalf("identical trees: exit %d\n%s%s", code, out, stderr)
	}

	// Drop an enum value from every generated file of example/v1.
	files, _ := filepath.Glob(filepath.Join(cur, "example", "v1", "zz_generated.crd-manifests", "*.yaml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, bytes.Replace(data, []byte("                    - StableValue\n"), nil, 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ = codegenOut(t, "compat", "--base-dir", cur, "--base-dir-old", old)
	want := "stableconfigtypes.example.openshift.io\n" +
		"  BREAKING  enum v1 ^.spec.evolvingUnion.type: allowed enum values removed : [\"StableValue\"]\n" +
		"            in every tuple (70)\n"
	if code != ExitBreaking || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, output:\n%s\nwant it to start with:\n%s", code, out, want)
	}

	code, out, _ = codegenOut(t, "compat", "--base-dir", cur, "--base-dir-old", old, "--output", "json")
	var rep struct {
		Summary struct{ Breaking int }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != ExitBreaking || rep.Summary.Breaking != 1 {
		t.Errorf("json: exit %d, %v, %+v\n%s", code, err, rep, out)
	}
}

func TestCompatUsage(t *testing.T) {
	for _, args := range [][]string{
		{"compat"},
		{"compat", "--base", "HEAD", "--base-dir-old", "."},
		{"compat", "--base-dir-old", ".", "--output", "xml"},
	} {
		if code, _, stderr := codegenOut(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, code, ExitUsage, stderr)
		}
	}
	if code, _, stderr := codegenOut(t, "compat", "--base-dir-old", t.TempDir(), "--base-dir", t.TempDir()); code != ExitInput || !strings.Contains(stderr, "no payload FeatureGate manifests") {
		t.Errorf("empty trees: exit %d\n%s", code, stderr)
	}
}
