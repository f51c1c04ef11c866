package kubetarget

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

func writeGoMod(t *testing.T, dir, requires string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	content := "module example.com/api\n\ngo 1.24\n\nrequire (\n" + requires + ")\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFromGoMod(t *testing.T) {
	cases := []struct {
		name, requires, want string
	}{
		{"apimachinery", "\tk8s.io/apimachinery v0.36.2\n", "1.36"},
		{"apimachinery before api", "\tk8s.io/api v0.35.1\n\tk8s.io/apimachinery v0.34.1\n", "1.34"},
		{"api alone", "\tk8s.io/api v0.33.0\n", "1.33"},
		{"indirect counts", "\tk8s.io/apimachinery v0.30.1 // indirect\n", "1.30"},
		{"pre-release of a minor", "\tk8s.io/apimachinery v0.37.0-alpha.1\n", "1.37"},
		{"pseudo-version names no release", "\tk8s.io/apimachinery v0.0.0-20260101000000-abcdefabcdef\n", ""},
		{"neither module", "\tsigs.k8s.io/yaml v1.6.0\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeGoMod(t, dir, c.requires)
			got, reason, ok := FromGoMod(filepath.Join(dir))
			if got != c.want || ok != (c.want != "") {
				t.Fatalf("FromGoMod = %q, %v; want %q", got, ok, c.want)
			}
			if ok && !strings.Contains(reason, filepath.Join(dir, "go.mod")) {
				t.Errorf("reason %q does not name the go.mod", reason)
			}
		})
	}
}

func TestFromGoModGoverningModule(t *testing.T) {
	root := t.TempDir()
	writeGoMod(t, root, "\tk8s.io/apimachinery v0.36.2\n")
	writeGoMod(t, filepath.Join(root, "api"), "\tk8s.io/apimachinery v0.31.0\n")
	deep := filepath.Join(root, "api", "hypershift", "v1beta1")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// The nearest go.mod governs: an operator repository's api/ module.
	if got, _, _ := FromGoMod(deep); got != "1.31" {
		t.Fatalf("nested module: got %q, want 1.31", got)
	}
	if got, _, _ := FromGoMod(filepath.Join(root, "hack")); got != "1.36" {
		t.Fatalf("directory without go.mod of its own: got %q, want 1.36", got)
	}
}

func TestChoose(t *testing.T) {
	dir := t.TempDir()
	writeGoMod(t, dir, "\tk8s.io/apimachinery v0.36.2\n")
	configured, err := repoconfig.Parse(filepath.Join(dir, repoconfig.FileName), []byte("kubeVersion: \"1.32\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	none := repoconfig.Defaults()
	cases := []struct {
		name      string
		flag      string
		cfg       repoconfig.Config
		dir       string
		want      string
		explicit  bool
		reasonHas string
	}{
		{"flag wins", "v1.33", configured, dir, "1.33", true, "--kube-version"},
		{"configuration next", "", configured, dir, "1.32", true, "kubeVersion of"},
		{"go.mod inferred", "", none, dir, "1.36", false, "k8s.io/apimachinery v0.36.2"},
		{"linked last", "", none, t.TempDir(), "1.37", false, "links"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Choose("--kube-version", c.flag, c.cfg, c.dir, "1.37")
			if err != nil {
				t.Fatal(err)
			}
			if got.Minor != c.want || got.Explicit != c.explicit || !strings.Contains(got.Reason, c.reasonHas) {
				t.Fatalf("Choose = %+v; want %s explicit=%v reason containing %q", got, c.want, c.explicit, c.reasonHas)
			}
		})
	}
	if _, err := Choose("--kube-version", "1.x", none, dir, "1.37"); err == nil || !strings.Contains(err.Error(), "--kube-version") {
		t.Fatalf("malformed flag: err = %v", err)
	}
}
