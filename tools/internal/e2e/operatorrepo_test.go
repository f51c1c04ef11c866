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
