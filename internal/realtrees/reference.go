package realtrees

import (
	"os"
	"path/filepath"
	"testing"
)

// ReferenceDataEnv names a directory of files the reference generator
// wrote, which tests compare gatedcrd's reading and writing with:
// example-v1/ and example-v1alpha1/ (the example group's partial
// manifests, summaries, merged manifests and suites) and
// payload-featuregates/ (the payload FeatureGate files of one registry).
// The repository does not hold them; docs/development.md says how to run
// the tests that use them.
const ReferenceDataEnv = "GATEDCRD_REFERENCE_DATA"

// ReferenceDataDir returns the directory ReferenceDataEnv names, and false
// when the variable is unset, for tests that only add cases with it.
func ReferenceDataDir() (string, bool) {
	dir := os.Getenv(ReferenceDataEnv)
	return dir, dir != ""
}

// ReferenceData returns the directory ReferenceDataEnv names joined with
// elem. It skips the test when the variable is unset, and fails it when
// the path does not exist: a variable set to a wrong directory would
// otherwise pass silently.
func ReferenceData(t testing.TB, elem ...string) string {
	t.Helper()
	dir, ok := ReferenceDataDir()
	if !ok {
		t.Skip(ReferenceDataEnv + " is not set; it names the reference generator's output (docs/development.md)")
	}
	dir = filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("%s: %v", ReferenceDataEnv, err)
	}
	return dir
}
