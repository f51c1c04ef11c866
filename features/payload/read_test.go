package payload

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// manifestYAML writes a payload file in YAML, to show that the reader does not
// depend on the JSON layout. Replacements let cases break one thing each.
func manifestYAML(replacements ...string) string {
	doc := `apiVersion: config.openshift.io/v1
kind: FeatureGate
metadata:
  name: cluster
  annotations:
    include.release.openshift.io/self-managed-high-availability: false-except-for-the-config-operator
    release.openshift.io/feature-set: TechPreviewNoUpgrade
    release.openshift.io/major-version: "6,5"
spec:
  featureSet: TechPreviewNoUpgrade
status:
  featureGates:
  - version: "4.1"
    enabled:
    - name: B
    - name: A
    disabled: null
`
	return strings.NewReplacer(replacements...).Replace(doc)
}

func TestParseManifestYAML(t *testing.T) {
	m, err := ParseManifest("f.yaml", []byte(manifestYAML()))
	if err != nil {
		t.Fatal(err)
	}
	want := Manifest{
		FileName:       "f.yaml",
		ClusterProfile: featuregate.SelfManagedHA,
		FeatureSet:     featuregate.TechPreviewNoUpgrade,
		Versions:       []int{5, 6},
		Enabled:        []featuregate.FeatureGateName{"A", "B"},
		Disabled:       []featuregate.FeatureGateName{},
		PayloadVersion: "4.1",
	}
	if !slices.Equal(m.Versions, want.Versions) || !slices.Equal(m.Enabled, want.Enabled) ||
		m.Disabled == nil || len(m.Disabled) != 0 || m.ClusterProfile != want.ClusterProfile ||
		m.FeatureSet != want.FeatureSet || m.PayloadVersion != want.PayloadVersion || m.FileName != want.FileName {
		t.Errorf("got %+v\nwant %+v", m, want)
	}
}

func TestParseManifestDefaultSpelling(t *testing.T) {
	for _, spec := range []string{"spec: {}", "spec:\n  featureSet: \"\"", "spec: null"} {
		doc := manifestYAML("spec:\n  featureSet: TechPreviewNoUpgrade", spec,
			"release.openshift.io/feature-set: TechPreviewNoUpgrade", "release.openshift.io/feature-set: Default")
		m, err := ParseManifest("f.yaml", []byte(doc))
		if err != nil || m.FeatureSet != featuregate.Default {
			t.Errorf("%q: feature set %q, err %v; want Default", spec, m.FeatureSet, err)
		}
	}
}

func TestParseManifestLegacy(t *testing.T) {
	m, err := ParseManifest("featureGate-Hypershift-Default.yaml",
		[]byte(manifestYAML(`    release.openshift.io/major-version: "6,5"`+"\n", "")))
	if err != nil || len(m.Versions) != 0 {
		t.Errorf("legacy file: versions %v, err %v; want no versions and no error", m.Versions, err)
	}
}

func TestParseManifestErrors(t *testing.T) {
	profileLine := "include.release.openshift.io/self-managed-high-availability: false-except-for-the-config-operator"
	cases := []struct {
		name    string
		doc     string
		message string
	}{
		{"not yaml", "{", "not valid JSON or YAML"},
		{"empty", "", "empty document"},
		{"wrong kind", manifestYAML("kind: FeatureGate", "kind: ConfigMap"), `kind is "ConfigMap"`},
		{"annotations not a map", manifestYAML("  annotations:\n", "  annotations: 3\n  x:\n"), "metadata.annotations is not an object"},
		{"bad version", manifestYAML(`"6,5"`, `"6,x"`), `"x" is not a positive integer`},
		{"empty version", manifestYAML(`"6,5"`, `""`), "not a positive integer"},
		{"duplicate version", manifestYAML(`"6,5"`, `"6,6"`), "twice"},
		{"no profile", manifestYAML(profileLine, "x: z"), "found 0"},
		{"two profiles", manifestYAML(profileLine, profileLine+"\n    include.release.openshift.io/ibm-cloud-managed: false-except-for-the-config-operator"), "found 2"},
		{"single node profile", manifestYAML("self-managed-high-availability", "single-node-developer"), "single-node-developer"},
		{"unknown profile key", manifestYAML("self-managed-high-availability", "edge"), "include.release.openshift.io/edge"},
		{"custom feature set", manifestYAML("featureSet: TechPreviewNoUpgrade", "featureSet: CustomNoUpgrade"), `spec.featureSet "CustomNoUpgrade"`},
		{"contradicting annotation", manifestYAML("feature-set: TechPreviewNoUpgrade", "feature-set: OKD"), "contradicts"},
		{"feature set not a string", manifestYAML("featureSet: TechPreviewNoUpgrade", "featureSet: [a]"), "spec.featureSet is not a string"},
		{"no status entry", manifestYAML("  featureGates:\n", "  featureGates: []\n  x:\n"), "has no entry"},
		{"enabled not a list", manifestYAML("    enabled:\n    - name: B\n    - name: A\n", "    enabled: A\n"), "enabled is not a list"},
		{"nameless gate", manifestYAML("- name: B", "- other: B"), "enabled[0] has no name"},
		{"duplicate gate", manifestYAML("- name: B", "- name: A"), `lists "A" twice`},
		{"enabled and disabled", manifestYAML("disabled: null", "disabled: [{name: A}]"), `"A" is both enabled and disabled`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest("bad.yaml", []byte(tc.doc))
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.doc)
			}
			if !strings.HasPrefix(err.Error(), "bad.yaml: ") || !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error %q: want the file name and %q", err, tc.message)
			}
		})
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadDirSkipsAndReports(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"featureGate-5-6-SelfManagedHA-TechPreviewNoUpgrade.yaml": manifestYAML(),
		"README.md":    "not a manifest",
		".hidden.yaml": "{",
		"other.json":   manifestYAML(`"6,5"`, `"4"`),
	})
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	d, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range d.Manifests {
		names = append(names, m.FileName)
	}
	if want := []string{"other.json", "featureGate-5-6-SelfManagedHA-TechPreviewNoUpgrade.yaml"}; !slices.Equal(names, want) {
		t.Errorf("manifests %q, want %q (ordered by first version)", names, want)
	}
	var skipped []string
	for _, s := range d.Skipped {
		skipped = append(skipped, s.FileName)
		if s.Reason == "" {
			t.Errorf("%s skipped without a reason", s.FileName)
		}
	}
	if want := []string{".hidden.yaml", "README.md", "sub"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}

func TestReadDirErrors(t *testing.T) {
	legacy := manifestYAML(`    release.openshift.io/major-version: "6,5"`+"\n", "")
	cases := []struct {
		name     string
		files    map[string]string
		messages []string
	}{
		{"pre-version files without the files named for their feature set", map[string]string{"legacy.yaml": legacy},
			[]string{"featureGate-Hypershift-TechPreviewNoUpgrade.yaml is missing", "featureGate-SelfManagedHA-TechPreviewNoUpgrade.yaml is missing"}},
		{"mixed", map[string]string{"legacy.yaml": legacy, "ok.yaml": manifestYAML()},
			[]string{"mixes versioned and unversioned", "with release.openshift.io/major-version: ok.yaml; without: legacy.yaml"}},
		{"empty", map[string]string{}, []string{"no FeatureGate manifest"}},
		{"every malformed file is named", map[string]string{"a.yaml": "{", "b.yaml": "kind: Pod", "ok.yaml": manifestYAML()},
			[]string{"a.yaml: ", "b.yaml: "}},
		{"overlapping files", map[string]string{"x.yaml": manifestYAML(), "y.yaml": manifestYAML(`"6,5"`, `"6,7"`)},
			[]string{"x.yaml and y.yaml both cover version 6 of TechPreviewNoUpgrade on SelfManagedHA"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			_, err := ReadDir(dir)
			if err == nil {
				t.Fatal("no error")
			}
			for _, m := range append(tc.messages, dir) {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not contain %q", err, m)
				}
			}
		})
	}
	t.Run("missing directory", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "absent")
		if _, err := ReadDir(missing); err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("error %v does not name %s", err, missing)
		}
	})
}
