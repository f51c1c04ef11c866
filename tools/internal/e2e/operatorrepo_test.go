package e2e

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// step is one codegen command line of an operator repository's Makefile,
// run in dir (relative to the repository root).
type step struct {
	dir  string
	args []string
}

// makefileForms are the two ways an operator repository calls codegen
// (docs/operator-repositories.md). Neither passes a flag beyond the
// Makefile's, and the fixture has no .gatedcrd.yaml: the zero-configuration
// contract (docs/zero-configuration.md).
var makefileForms = []struct {
	name  string
	steps []step
}{
	{"current Makefile, from ./api", []step{
		{"api", []string{"empty-partial-schemas"}},
		{"api", []string{"schemapatch"}},
		{"api", []string{"crd-manifest-merge", "--manifest-merge:payload-manifest-path", "./fleet/v1beta1/featuregates"}},
	}},
	// The payload path is relative to the working directory, not to
	// --base-dir: the reference's meaning.
	{"older Makefile, from the root", []step{
		{".", []string{"empty-partial-schemas", "--base-dir", "./" + fixtureGV, "--manifest-merge:payload-manifest-path", "./" + fixtureGV + "/featuregates"}},
		{".", []string{"schemapatch", "--base-dir", "./" + fixtureGV, "--manifest-merge:payload-manifest-path", "./" + fixtureGV + "/featuregates"}},
		{".", []string{"crd-manifest-merge", "--base-dir", "./" + fixtureGV, "--manifest-merge:payload-manifest-path", "./" + fixtureGV + "/featuregates"}},
	}},
}

// codegen runs bin in root/s.dir and returns its stderr; it fails the test
// unless the exit status is wantStatus.
func codegen(t *testing.T, bin, root string, s step, wantStatus int) string {
	t.Helper()
	cmd := exec.Command(bin, s.args...)
	cmd.Dir = filepath.Join(root, s.dir)
	cmd.Env = fixtureEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	if exit, ok := err.(*exec.ExitError); ok {
		status = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if status != wantStatus {
		t.Fatalf("(cd %s && codegen %s): exit status %d, want %d\nstdout:\n%s\nstderr:\n%s",
			s.dir, strings.Join(s.args, " "), status, wantStatus, stdout.String(), stderr.String())
	}
	return stderr.String()
}

// TestOperatorRepoFixture runs both Makefile forms on a copy of the
// operator repository fixture and compares what they write with the
// generated files committed there, then checks that --verify accepts the
// result and rejects a changed file.
func TestOperatorRepoFixture(t *testing.T) {
	if testing.Short() {
		t.Skip("builds codegen and vendors the fixture's modules")
	}
	bin := buildCodegen(t)
	template, golden := vendoredFixture(t)
	for i, form := range makefileForms {
		// With -update the first form rewrites the goldens and the
		// second must still reproduce them.
		rewrite := *update && i == 0
		t.Run(form.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, readTree(t, template, nil))
			var stderr strings.Builder
			for _, s := range form.steps {
				stderr.WriteString(codegen(t, bin, dir, s, 0))
			}
			checkStrictWarnings(t, stderr.String())
			compareTree(t, dir, clone(golden), rewrite)
			if t.Failed() {
				return
			}
			for _, s := range form.steps {
				codegen(t, bin, dir, verify(s), 0)
			}
			// --verify must fail once a committed manifest is stale.
			const staleName = "controlplanesnapshots-TechPreviewNoUpgrade.crd.yaml"
			stale := filepath.Join(dir, fixtureGV, "zz_generated.crd-manifests", staleName)
			if err := os.WriteFile(stale, []byte("stale\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if out := codegen(t, bin, dir, verify(form.steps[len(form.steps)-1]), 1); !strings.Contains(out, staleName) {
				t.Errorf("--verify on a stale manifest does not name it:\n%s", out)
			}
		})
		if rewrite {
			golden = readTree(t, fixtureDir, func(rel string) bool { return !generated(rel) })
		}
	}
	t.Run("goldens", checkGoldens)
	t.Run("installer selection", checkInstallerSelection)
}

// verify is s with --verify.
func verify(s step) step { return step{s.dir, slices.Concat(s.args, []string{"--verify"})} }

func clone(m map[string][]byte) map[string][]byte {
	c := make(map[string][]byte, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// strictMarkers are lines of the fixture that real operator repositories
// carry and that strict mode flags; without configuration they must be
// warnings, each with its file and line.
var strictMarkers = []string{
	`+kubebuilder:example: "quay.io/example/release:1.0"`,
	`+kubebuilder:validation:ListType=atomic`,
}

func checkStrictWarnings(t *testing.T, stderr string) {
	t.Helper()
	const file = "types_controlplane.go"
	for _, marker := range strictMarkers {
		line := lineOf(t, filepath.Join(fixtureDir, fixtureGV, file), "// "+marker)
		re := regexp.MustCompile(`(?m)^warning: \S*` + regexp.QuoteMeta(file+":"+line+": "+marker))
		if !re.MatchString(stderr) {
			t.Errorf("no warning for %s at %s:%s on stderr:\n%s", marker, file, line, stderr)
		}
	}
}

// lineOf is the number of the line of path that is text after indentation.
func lineOf(t *testing.T, path, text string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == text {
			return strconv.Itoa(n)
		}
	}
	t.Fatalf("%s has no line %q", path, text)
	return ""
}

// pin2026Dir holds the generated files of the fixture that differ when its
// hack/tools/go.mod pins a reference of January 2026 instead of September
// 2025: the era told by the pin decides what stage 1 sees.
const pin2026Dir = "testdata/operatorrepo-pin2026"

// The reference the fixture pins, and the one its 2026 variant pins.
const (
	pin2025 = "v0.0.0-20250915151906-94481d71bb6f"
	pin2026 = "v0.0.0-20260114133223-6ab113cb7368"
)

// TestOperatorRepoFixtureEras: with no configuration, the fixture's
// goldens follow the era of the reference its hack/tools/go.mod pins.
// Pinned to September 2025 (the committed goldens, TestOperatorRepoFixture)
// the gate whose only marker is on a type of another group-version
// (network/v1) gets no partial manifest; pinned to January 2026 it does,
// and the merged CRDs of TechPreviewNoUpgrade carry its rule. The first
// line after discovery names the era and the pin.
func TestOperatorRepoFixtureEras(t *testing.T) {
	if testing.Short() {
		t.Skip("builds codegen and vendors the fixture's modules")
	}
	bin := buildCodegen(t)
	template, golden := vendoredFixture(t)
	form := makefileForms[0]
	for _, c := range []struct {
		pin, era string
		overlay  map[string][]byte
	}{
		{pin2025, "2025-09", nil},
		{pin2026, "2025-11-05", readOverlay(t)},
	} {
		t.Run(c.pin, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, readTree(t, template, nil))
			mod := filepath.Join(dir, "hack", "tools", "go.mod")
			data, err := os.ReadFile(mod)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(data, []byte(pin2025)) {
				t.Fatalf("%s does not pin %s", mod, pin2025)
			}
			if err := os.WriteFile(mod, bytes.ReplaceAll(data, []byte(pin2025), []byte(c.pin)), 0o644); err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			for _, s := range form.steps {
				stderr.WriteString(codegen(t, bin, dir, s, 0))
			}
			wantLine := "codegen: output of the reference of era " + c.era + " (github.com/openshift/api/tools " + c.pin + " in ../hack/tools/go.mod, of "
			if !strings.Contains(stderr.String(), wantLine) {
				t.Errorf("no line %q on stderr:\n%s", wantLine, stderr.String())
			}
			got := readTree(t, dir, func(rel string) bool { return !generated(rel) })
			if *update && c.overlay != nil {
				writeOverlay(t, got, golden)
				return
			}
			for _, rel := range sortedKeys(got) {
				want, ok := c.overlay[rel]
				if !ok {
					want, ok = golden[rel]
				}
				if !ok {
					t.Errorf("%s: written, but no such golden file", rel)
				} else if !bytes.Equal(want, got[rel]) {
					t.Errorf("%s differs from the golden file (rerun with -update and review the diff):\n%s", rel, diff(want, got[rel]))
				}
			}
			for _, rel := range sortedKeys(golden) {
				if _, ok := got[rel]; !ok {
					t.Errorf("%s: golden file not written", rel)
				}
			}
			partial := fixtureGV + "/zz_generated.featuregated-crd-manifests/controlplanes.fleet.example.com/ClusterNetworkCIDRs.yaml"
			if _, ok := got[partial]; ok != (c.overlay != nil) {
				t.Errorf("%s written: %v, want %v", partial, ok, c.overlay != nil)
			}
		})
	}
}

// readOverlay reads the generated files of pin2026Dir.
func readOverlay(t *testing.T) map[string][]byte {
	t.Helper()
	if _, err := os.Stat(pin2026Dir); os.IsNotExist(err) && *update {
		return map[string][]byte{}
	}
	overlay := readTree(t, pin2026Dir, func(rel string) bool { return !generated(rel) })
	if len(overlay) == 0 {
		t.Fatalf("%s holds no generated file", pin2026Dir)
	}
	return overlay
}

// writeOverlay rewrites pin2026Dir with the files of got that differ from
// golden (-update).
func writeOverlay(t *testing.T, got, golden map[string][]byte) {
	t.Helper()
	if err := os.RemoveAll(pin2026Dir); err != nil {
		t.Fatal(err)
	}
	differ := map[string][]byte{}
	for rel, data := range got {
		if !bytes.Equal(golden[rel], data) {
			differ[rel] = data
		}
	}
	writeTree(t, pin2026Dir, differ)
}
