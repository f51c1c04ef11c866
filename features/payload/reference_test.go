package payload

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/realtrees"
)

// referenceDir locates the payload files the reference generator wrote
// (realtrees.ReferenceDataEnv); tests using it skip without it.
func referenceDir(t *testing.T) string {
	t.Helper()
	return realtrees.ReferenceData(t, "payload-featuregates")
}

func referenceFiles(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(referenceDir(t), "*.yaml"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no reference files: %v", err)
	}
	return names
}

// TestParseReferenceFiles reads each reference file and checks what it says
// against its name, featureGate-4-10-<Profile>-<FeatureSet>.yaml.
func TestParseReferenceFiles(t *testing.T) {
	for _, path := range referenceFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m, err := ParseManifest(name, data)
			if err != nil {
				t.Fatal(err)
			}
			parts := strings.Split(strings.TrimSuffix(name, ".yaml"), "-")
			if len(parts) != 5 {
				t.Fatalf("unexpected reference file name %q", name)
			}
			if string(m.ClusterProfile) != parts[3] || string(m.FeatureSet) != parts[4] {
				t.Errorf("profile/feature set = %s/%s, want %s/%s", m.ClusterProfile, m.FeatureSet, parts[3], parts[4])
			}
			if want := []int{4, 5, 6, 7, 8, 9, 10}; !slices.Equal(m.Versions, want) {
				t.Errorf("versions = %v, want %v", m.Versions, want)
			}
			if FileName(m.ClusterProfile, m.FeatureSet, m.Versions) != name {
				t.Errorf("FileName = %q, want %q", FileName(m.ClusterProfile, m.FeatureSet, m.Versions), name)
			}
			// Every gate listed in the file must be read, in one list only
			// (the other "name" is metadata.name).
			if n := bytes.Count(data, []byte(`"name": `)) - 1; n != len(m.Enabled)+len(m.Disabled) {
				t.Errorf("read %d+%d gates, file lists %d", len(m.Enabled), len(m.Disabled), n)
			}
			if len(m.Enabled) == 0 || len(m.Disabled) == 0 {
				t.Errorf("reference files have gates on both sides; got %d enabled, %d disabled", len(m.Enabled), len(m.Disabled))
			}
			if !slices.IsSorted(m.Enabled) || !slices.IsSorted(m.Disabled) {
				t.Error("lists are not sorted")
			}
			// Facts stated by the spec's worked example.
			if m.IsEnabled("Example") != (m.FeatureSet == featuregate.TechPreviewNoUpgrade || m.FeatureSet == featuregate.DevPreviewNoUpgrade) {
				t.Errorf("Example enabled = %v in %s", m.IsEnabled("Example"), m.FeatureSet)
			}
			if m.IsEnabled("Example2") != (m.FeatureSet == featuregate.DevPreviewNoUpgrade) {
				t.Errorf("Example2 enabled = %v in %s", m.IsEnabled("Example2"), m.FeatureSet)
			}
		})
	}
}

func TestReadReferenceDir(t *testing.T) {
	d, err := ReadDir(referenceDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Manifests) != len(referenceFiles(t)) || len(d.Skipped) != 0 {
		t.Fatalf("%d manifests, %d skipped; want every reference file read", len(d.Manifests), len(d.Skipped))
	}
	for _, v := range []int{4, 10} {
		for _, p := range featuregate.ClusterProfiles() {
			for _, fs := range featuregate.FixedFeatureSets() {
				if _, ok := d.Lookup(v, p, fs); !ok {
					t.Errorf("no manifest for %d/%s/%s", v, p, fs)
				}
			}
		}
	}
	if _, ok := d.Lookup(11, featuregate.Hypershift, featuregate.Default); ok {
		t.Error("version 11 is not covered by the reference")
	}
}

// TestReferenceFormatting re-serialises each reference file's generic map and
// expects the same bytes: the writer formats exactly like the reference.
func TestReferenceFormatting(t *testing.T) {
	for _, path := range referenceFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]any
			if err := yaml.Unmarshal(data, &obj); err != nil {
				t.Fatal(err)
			}
			got, err := MarshalIndentedJSON(obj)
			if err != nil {
				t.Fatal(err)
			}
			if d := compareContent(path, got, data); d != nil {
				t.Error(d)
			}
		})
	}
}
