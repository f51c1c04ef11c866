package referenceera

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/refera"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const apiGoMod = "module example.com/operator/api\n\ngo 1.24\n\nrequire k8s.io/apimachinery v0.34.1\n"

func toolsGoMod(directives string) string {
	return "module example.com/operator/hack/tools\n\ngo 1.24\n\n" + directives
}

// TestPins: the pin of the reference in a go.mod of the repository names
// the era of its date, from any base directory below; what cannot be
// dated is said and skipped.
func TestPins(t *testing.T) {
	cases := []struct {
		name, file, gomod string
		git               bool
		want              refera.Era
		reason, note      string
	}{
		{"hack/tools pseudo-version", "hack/tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f\n"),
			false, refera.Era202509, "github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f in ", ""},
		{"on a change's day", "hack/tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20260218112846-22c744831738\n"),
			false, "2026-02-18", ", of 2026-02-18", ""},
		{"replaced by a version", "tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f\n\nreplace github.com/openshift/api/tools => github.com/openshift/api/tools v0.0.0-20260320151444-324a1bcb9f00\n"),
			false, refera.Era202603, "v0.0.0-20260320151444-324a1bcb9f00", ""},
		{"older than every era", "go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20250101000000-000000000000\n"),
			false, refera.Era202509, "older than every era known", ""},
		{"deeper, found from the repository root", "build/tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20251020135558-286504b695bc\n"),
			true, "2025-10-09", "build/tools/go.mod", ""},
		{"replaced by a directory", "hack/tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f\n\nreplace github.com/openshift/api/tools => ../../tools\n"),
			false, "", "", "by the directory ../../tools"},
		{"no pseudo-version", "hack/tools/go.mod", toolsGoMod("require github.com/openshift/api/tools v0.1.0\n"),
			false, "", "", "is no pseudo-version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.git {
				write(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/main\n")
			}
			write(t, filepath.Join(root, "api", "go.mod"), apiGoMod)
			write(t, filepath.Join(root, filepath.FromSlash(c.file)), c.gomod)
			got, notes, ok := FromRepository(filepath.Join(root, "api", "fleet", "v1beta1"))
			if ok != (c.want != "") || got.Era != c.want || !strings.Contains(got.Reason, c.reason) {
				t.Errorf("got %v, %v (ok %v), want era %q with %q", got, notes, ok, c.want, c.reason)
			}
			if c.note != "" && (len(notes) != 1 || !strings.Contains(notes[0], c.note)) {
				t.Errorf("notes %q, want one with %q", notes, c.note)
			}
		})
	}
}

// TestToolsSigns: openshift/api's tools/ tells the era by the signs of
// its files: the oldest era when every sign is of the old code, and an
// era ends at the first change whose sign is missing.
func TestToolsSigns(t *testing.T) {
	oldMerge := "package manifestmerge\n\nfunc f() { sort.Slice(partialManifestFiles, nil) }\n"
	newMerge := "package manifestmerge\n\nfunc f() { slices.SortStableFunc(partialManifestFiles, nil) }\n"
	oldStage1 := "package emptypartialschemas\n\nimport \"k8s.io/gengo/args\"\n"
	newStage1 := "package emptypartialschemas\n\nfunc g() { generation.Execute(p, u) }\n"
	goMod := func(ct string) string {
		return "module github.com/openshift/api/tools\n\ngo 1.24\n\nrequire sigs.k8s.io/controller-tools v0.18.0\n\nreplace sigs.k8s.io/controller-tools => github.com/openshift/controller-tools " + ct + "\n"
	}
	schema := `{"x-kubernetes-patch-merge-key": "rule"}`
	cases := []struct {
		name                 string
		merge, stage1, gomod string
		want                 refera.Era
	}{
		{"September 2025", oldMerge, oldStage1, goMod("v0.12.1-0.20250801155905-948121310243"), refera.Era202509},
		{"stable order only", newMerge, oldStage1, goMod("v0.12.1-0.20250801155905-948121310243"), "2025-10-09"},
		{"global parser", newMerge, newStage1, goMod("v0.12.1-0.20250801155905-948121310243"), "2025-11-05"},
		{"controller-tools of 2026-01-20", newMerge, newStage1, goMod("v0.12.1-0.20260120141914-b0865777b142"), "2026-01-21"},
		{"gated CRDs in one file", newMerge + "const a = \"release.openshift.io/feature-gate\"\n", newStage1, goMod("v0.12.1-0.20260120141914-b0865777b142"), "2026-02-18"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "go.mod"), "module github.com/openshift/api\n\ngo 1.24\n")
			write(t, filepath.Join(root, "tools", "go.mod"), c.gomod)
			write(t, filepath.Join(root, "tools", "codegen", "pkg", "manifestmerge", "generator.go"), c.merge)
			write(t, filepath.Join(root, "tools", "codegen", "pkg", "manifestmerge", "crd-schema.json"), schema)
			write(t, filepath.Join(root, "tools", "codegen", "pkg", "emptypartialschemas", "generator.go"), c.stage1)
			got, _, ok := FromRepository(filepath.Join(root, "config", "v1"))
			if !ok || got.Era != c.want {
				t.Errorf("got %v (ok %v), want era %s", got, ok, c.want)
			}
		})
	}
	t.Run("no tools module", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, "go.mod"), "module github.com/openshift/api\n\ngo 1.24\n")
		if got, _, ok := FromRepository(root); ok {
			t.Errorf("a module zip (no tools/) tells era %v", got)
		}
	})
}
