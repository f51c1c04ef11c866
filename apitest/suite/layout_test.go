package suite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// operatorLayout assembles an operator repository whose API version
// directory is <root>/<versionDir>: tests/ (with *.testsuite.yaml names)
// beside zz_generated.crd-manifests/, and the pre-version payload files
// at <root>/<payloadAt>. The root holds a go.mod, as a repository does.
func operatorLayout(t *testing.T, versionDir, payloadAt string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	for from, to := range map[string]string{
		operatorRepo + "/tests":                      filepath.Join(versionDir, "tests"),
		operatorRepo + "/zz_generated.crd-manifests": filepath.Join(versionDir, generatedDir),
		operatorRepo + "/featuregates":               payloadAt,
	} {
		if err := os.CopyFS(filepath.Join(root, to), os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/operator\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// pairsOf lists a plan's pairs as "<suite file base>@<CRD file base>".
func pairsOf(plan *Plan) []string {
	var out []string
	for _, batch := range plan.Batches {
		for _, v := range batch {
			for _, s := range v.Suites {
				out = append(out, filepath.Base(s.Path)+"@"+filepath.Base(v.File.Path))
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestOperatorLayouts runs Prepare without a payload directory on the
// layouts of operator repositories: the payload directory is found
// beside the suites or above them, at any depth below --base-dir, and the
// plan is the one an explicit payload directory gives.
func TestOperatorLayouts(t *testing.T) {
	flat := operatorLayout(t, ".", "payload-manifests/featuregates")
	want, err := Prepare(Options{BaseDir: flat, PayloadDir: filepath.Join(flat, "payload-manifests", "featuregates"), Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	wantPairs := pairsOf(want)
	if len(wantPairs) != 21 {
		t.Fatalf("the reference plan has %d pairs, want 21: %v", len(wantPairs), wantPairs)
	}
	for _, tc := range []struct {
		name, versionDir, payloadAt, baseDir string
	}{
		{"flat, as the issue's repository", ".", "payload-manifests/featuregates", "."},
		{"deep, payload beside the version directory", "api/fleet/v1beta1", "api/fleet/v1beta1/featuregates", "."},
		{"deep, payload at the module root", "api/fleet/v1beta1", "payload-manifests/featuregates", "."},
		{"deep, payload in the API directory", "api/fleet/v1beta1", "api/payload-manifests/featuregates", "."},
		{"base dir inside the tree, payload above it", "api/fleet/v1beta1", "payload-manifests/featuregates", "api/fleet"},
		{"base dir is the version directory", "api/fleet/v1beta1", "api/fleet/v1beta1/featuregates", "api/fleet/v1beta1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := operatorLayout(t, tc.versionDir, tc.payloadAt)
			plan, err := Prepare(Options{BaseDir: filepath.Join(root, tc.baseDir), Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := pairsOf(plan); !slices.Equal(got, wantPairs) {
				t.Errorf("pairs\n%v\nwant\n%v", got, wantPairs)
			}
		})
	}

	t.Run("no payload", func(t *testing.T) {
		root := operatorLayout(t, "api/fleet/v1beta1", "elsewhere/featuregates")
		_, err := Prepare(Options{BaseDir: root})
		vd := filepath.Join(root, "api", "fleet", "v1beta1")
		for _, want := range []string{
			"no payload FeatureGate manifests (featureGate-*.yaml) for the suites of " + vd + ": looked in " + filepath.Join(vd, "payload-manifests", "featuregates") + ", " + filepath.Join(vd, "featuregates") + ", ",
			filepath.Join(root, "featuregates") + "; give the directory with --payload-dir",
		} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want it to contain %q", err, want)
			}
		}
		if n := len(diag.Flatten(err)); n != 1 {
			t.Errorf("%d problems, want one for the version directory: %v", n, err)
		}
	})

	t.Run("a featuregates directory without manifests is not a payload", func(t *testing.T) {
		root := operatorLayout(t, "api/fleet/v1beta1", "payload-manifests/featuregates")
		goPkg := filepath.Join(root, "api", "fleet", "v1beta1", "featuregates")
		if err := os.MkdirAll(goPkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(goPkg, "gates.go"), []byte("package featuregates\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		dir, _, err := FindPayloadDir(filepath.Join(root, "api", "fleet", "v1beta1"))
		if err != nil || dir != filepath.Join(root, "payload-manifests", "featuregates") {
			t.Errorf("FindPayloadDir = %q, %v; want the root's payload-manifests/featuregates", dir, err)
		}
	})
}
