package payload

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzParseManifest feeds arbitrary bytes to the payload FeatureGate reader:
// it must return a manifest or an error, never panic, and a manifest it
// accepts as versioned must keep the reader's promises (sorted, non-nil gate lists).
func FuzzParseManifest(f *testing.F) {
	matches, _ := filepath.Glob("../../payload-manifests/featuregates/*.yaml")
	for _, m := range matches {
		if data, err := os.ReadFile(m); err == nil {
			f.Add(filepath.Base(m), data)
		}
	}
	f.Add("featureGate-4-Hypershift-Default.yaml", []byte(`{"kind":"FeatureGate","metadata":{"annotations":{"include.release.openshift.io/ibm-cloud-managed":"false-except-for-the-config-operator","release.openshift.io/major-version":"4"}},"status":{"featureGates":[{"enabled":null}]}}`))
	f.Add("x.yaml", []byte("kind: FeatureGate\nmetadata: [\n"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		m, err := ParseManifest(name, data)
		if err != nil || len(m.Versions) == 0 {
			return // rejected, or a legacy file that ReadDir skips
		}
		if m.Enabled == nil || m.Disabled == nil {
			t.Fatalf("accepted manifest with nil gate lists: %+v", m)
		}
		if !slices.IsSorted(m.Enabled) || !slices.IsSorted(m.Disabled) || !slices.IsSorted(m.Versions) {
			t.Fatalf("accepted manifest with unsorted lists: %+v", m)
		}
	})
}
