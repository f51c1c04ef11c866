package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// apiRepoDir is an API repository shaped like openshift/api, with the
// files of every generator of a bare codegen committed (see its README).
const apiRepoDir = "testdata/apirepo"

// apiRepoGenerated reports whether rel is a file a bare codegen writes in
// the fixture: its golden files.
func apiRepoGenerated(rel string) bool {
	base := filepath.Base(rel)
	return strings.HasPrefix(base, "zz_generated.") || strings.Contains(rel, "/zz_generated.") ||
		base == "generated.proto" || base == "generated.pb.go"
}

// The fixture's generated files, by generator.
const (
	apiDeepcopy  = "widgets/v1/zz_generated.deepcopy.go"
	apiSwagger   = "widgets/v1/zz_generated.swagger_doc_generated.go"
	apiModelName = "widgets/v1/zz_generated.model_name.go"
	apiProto     = "widgets/v1/generated.proto"
	apiOpenAPI   = "openapi/generated_openapi/zz_generated.openapi.go"
	apiCRD       = "widgets/v1/zz_generated.crd-manifests/widgets.crd.yaml"
	// apiTypes is the types file, which compatibility and go-to-protobuf
	// (its struct tags) write too.
	apiTypes = "widgets/v1/types.go"
)

// codegenIn runs the codegen binary in dir and returns its exit status and
// output.
func codegenIn(t *testing.T, bin, dir string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = fixtureEnv()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatalf("running codegen: %v", err)
	}
	return 0, string(out)
}

// apiRepoCopy copies the fixture into a temporary directory.
func apiRepoCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, readTree(t, apiRepoDir, nil))
	return dir
}

// replaceIn edits one file of dir, failing when old is not in it.
func replaceIn(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s holds no %q", rel, old)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAPIRepoRegenerates deletes every generated file of the fixture and
// runs a bare codegen, which must bring each back byte for byte and write
// nothing else; a bare codegen --verify then passes. With -update it
// rewrites the golden files instead.
func TestAPIRepoRegenerates(t *testing.T) {
	bin := buildCodegen(t)
	all := readTree(t, apiRepoDir, nil)
	dir := t.TempDir()
	sources := map[string][]byte{}
	for rel, data := range all {
		if !apiRepoGenerated(rel) {
			sources[rel] = data
		}
	}
	writeTree(t, dir, sources)
	if code, out := codegenIn(t, bin, dir, "--base-dir", ".", "-v", "1"); code != 0 {
		t.Fatalf("codegen exited %d:\n%s", code, out)
	}
	got := readTree(t, dir, nil)
	if *update {
		for rel, data := range got {
			if apiRepoGenerated(rel) {
				writeTree(t, apiRepoDir, map[string][]byte{rel: data})
			}
		}
		return
	}
	for _, rel := range sortedKeys(got) {
		want, ok := all[rel]
		switch {
		case !ok:
			t.Errorf("%s: written, but the fixture has no such file", rel)
		case !bytes.Equal(want, got[rel]):
			t.Errorf("%s differs from the committed file (rerun with -update and review the diff):\n%s", rel, diff(want, got[rel]))
		}
	}
	for _, rel := range sortedKeys(all) {
		if _, ok := got[rel]; !ok {
			t.Errorf("%s: not written", rel)
		}
	}
	if code, out := codegenIn(t, bin, dir, "--base-dir", ".", "--verify"); code != 0 {
		t.Fatalf("codegen --verify after a generation exited %d:\n%s", code, out)
	}
}

// TestAPIRepoVerifyNamesEveryGenerator edits the fixture's types and
// generated files: a bare codegen --verify, and the sub-command of the
// generator concerned, must fail naming the stale files of each generator
// the edit concerns, and write nothing.
func TestAPIRepoVerifyNamesEveryGenerator(t *testing.T) {
	bin := buildCodegen(t)
	cases := []struct {
		name string
		edit func(t *testing.T, dir string)
		// stale are the files the edit makes stale, by generator
		// sub-command; fresh are files that must not be named.
		stale map[string]string
		fresh []string
	}{
		{
			name: "a new list field",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, apiTypes, "\tLabels []string `json:\"labels,omitempty\" protobuf:\"bytes,2,rep,name=labels\"`\n",
					"\tLabels []string `json:\"labels,omitempty\" protobuf:\"bytes,2,rep,name=labels\"`\n\t// owners name the widget's owners.\n\t// +optional\n\t// +listType=set\n\tOwners []string `json:\"owners,omitempty\"`\n")
			},
			stale: map[string]string{"deepcopy": apiDeepcopy, "swaggerdocs": apiSwagger, "openapi": apiOpenAPI, "crd-manifests": apiCRD, "go-to-protobuf": apiProto},
			fresh: []string{apiModelName},
		},
		{
			name: "a new type",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, apiTypes, "// WidgetStatus is the observed state of a widget.",
					"// WidgetColour is a widget's colour.\ntype WidgetColour struct {\n\t// name names the colour.\n\tName string `json:\"name\"`\n}\n\n// WidgetStatus is the observed state of a widget.")
			},
			stale: map[string]string{"modelname": apiModelName, "deepcopy": apiDeepcopy, "go-to-protobuf": apiProto},
			fresh: []string{apiCRD},
		},
		{
			name: "a changed compatibility level line",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, apiTypes, "// Compatibility level 1: Stable within a major release", "// Compatibility level 1: stable within a major release")
			},
			stale: map[string]string{"compatibility": apiTypes},
			fresh: []string{apiDeepcopy},
		},
		{
			name: "a changed doc comment",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, apiTypes, "// diameter is the widget's diameter in centimetres.", "// diameter is the widget's diameter in millimetres.")
			},
			stale: map[string]string{"swaggerdocs": apiSwagger, "openapi": apiOpenAPI, "crd-manifests": apiCRD},
			fresh: []string{apiDeepcopy},
		},
		{
			name: "an edited deepcopy file",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, apiDeepcopy, "*out = *in", "*out = *in // edited")
			},
			stale: map[string]string{"deepcopy": apiDeepcopy},
			fresh: []string{apiSwagger, apiOpenAPI, apiCRD},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := apiRepoCopy(t)
			tc.edit(t, dir)
			before := readTree(t, dir, nil)
			code, out := codegenIn(t, bin, dir, "--base-dir", ".", "--verify")
			if code != 1 {
				t.Fatalf("bare codegen --verify exited %d, want 1:\n%s", code, out)
			}
			for _, rel := range tc.stale {
				if !strings.Contains(out, rel) {
					t.Errorf("bare codegen --verify does not name %s:\n%s", rel, out)
				}
			}
			for _, rel := range tc.fresh {
				if strings.Contains(out, rel) {
					t.Errorf("bare codegen --verify names %s, which is current:\n%s", rel, out)
				}
			}
			for cmd, rel := range tc.stale {
				code, out := codegenIn(t, bin, dir, cmd, "--base-dir", ".", "--verify")
				if code != 1 || !strings.Contains(out, rel) {
					t.Errorf("codegen %s --verify exited %d, want 1 naming %s:\n%s", cmd, code, rel, out)
				}
			}
			after := readTree(t, dir, nil)
			if len(after) != len(before) {
				t.Errorf("--verify changed the number of files: %d -> %d", len(before), len(after))
			}
			for rel, data := range before {
				if !bytes.Equal(after[rel], data) {
					t.Errorf("--verify changed %s", rel)
				}
			}
		})
	}
}
