package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const (
	hypershift  = "include.release.openshift.io/ibm-cloud-managed"
	selfManaged = "include.release.openshift.io/self-managed-high-availability"
	featureSet  = "release.openshift.io/feature-set"
)

// wantManifest is what review of the goldens against the pre-version rules
// (docs/reference-rules.md, "Pre-version trees") found each
// CRD manifest must be: its profiles and its one feature set ("" for none).
type wantManifest struct {
	profiles   []string
	featureSet string
}

var wantManifests = map[string]wantManifest{
	// Rule 1: no gate, the same everywhere: one file for both profiles.
	"placementpolicies.crd.yaml": {[]string{hypershift, selfManaged}, ""},
	// Rule 2: gated as a whole and on only in TechPreviewNoUpgrade (and
	// CustomNoUpgrade, which has every CRD): one file per feature set, each
	// with a single-valued feature-set annotation.
	"controlplanesnapshots-CustomNoUpgrade.crd.yaml":      {[]string{hypershift, selfManaged}, "CustomNoUpgrade"},
	"controlplanesnapshots-TechPreviewNoUpgrade.crd.yaml": {[]string{hypershift, selfManaged}, "TechPreviewNoUpgrade"},
	// Rule 3: Default differs between profiles (ExternalDNSProvider is on
	// in featureGate-Hypershift-Default.yaml only), and within each profile
	// Default differs from the rest: one file per tuple.
	"controlplanes-Hypershift-CustomNoUpgrade.crd.yaml":         {[]string{hypershift}, "CustomNoUpgrade"},
	"controlplanes-Hypershift-Default.crd.yaml":                 {[]string{hypershift}, "Default"},
	"controlplanes-Hypershift-TechPreviewNoUpgrade.crd.yaml":    {[]string{hypershift}, "TechPreviewNoUpgrade"},
	"controlplanes-SelfManagedHA-CustomNoUpgrade.crd.yaml":      {[]string{selfManaged}, "CustomNoUpgrade"},
	"controlplanes-SelfManagedHA-Default.crd.yaml":              {[]string{selfManaged}, "Default"},
	"controlplanes-SelfManagedHA-TechPreviewNoUpgrade.crd.yaml": {[]string{selfManaged}, "TechPreviewNoUpgrade"},
}

type crd struct {
	Metadata struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

// crdManifests reads the committed CRD manifests of the fixture.
func crdManifests(t *testing.T) map[string][]byte {
	t.Helper()
	dir := filepath.Join(fixtureDir, fixtureGV, "zz_generated.crd-manifests")
	return readTree(t, dir, func(rel string) bool { return !strings.HasSuffix(rel, ".crd.yaml") })
}

// checkGoldens holds the committed manifests to the review, so that a
// careless -update cannot commit output the pre-version rules forbid.
func checkGoldens(t *testing.T) {
	files := crdManifests(t)
	if got, want := sortedKeys(files), slices.Sorted(func(yield func(string) bool) {
		for name := range wantManifests {
			if !yield(name) {
				return
			}
		}
	}); !slices.Equal(got, want) {
		t.Fatalf("CRD manifests = %v, want %v", got, want)
	}
	for name, data := range files {
		if strings.Contains(string(data), "major-version") {
			t.Errorf("%s mentions a major version", name)
		}
		var c crd
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := wantManifests[name]
		var profiles []string
		for k, v := range c.Metadata.Annotations {
			if strings.HasPrefix(k, "include.release.openshift.io/") {
				profiles = append(profiles, k)
				if v != "true" {
					t.Errorf("%s: %s: %q, want \"true\"", name, k, v)
				}
			}
		}
		slices.Sort(profiles)
		if !slices.Equal(profiles, want.profiles) {
			t.Errorf("%s: profiles %v, want %v", name, profiles, want.profiles)
		}
		if got := c.Metadata.Annotations[featureSet]; got != want.featureSet {
			t.Errorf("%s: %s = %q, want %q", name, featureSet, got, want.featureSet)
		}
	}
	// The payload file NAMED SelfManagedHA-Default (annotated Hypershift)
	// decides SelfManagedHA's Default: it leaves ExternalDNSProvider off.
	has := func(name, text string) bool { return strings.Contains(string(files[name]), text) }
	if has("controlplanes-SelfManagedHA-Default.crd.yaml", "\n              dns:\n") {
		t.Error("controlplanes-SelfManagedHA-Default has the dns field: its gate is off in featureGate-SelfManagedHA-Default.yaml")
	}
	if !has("controlplanes-Hypershift-Default.crd.yaml", "\n              dns:\n") {
		t.Error("controlplanes-Hypershift-Default lacks the dns field: its gate is on in featureGate-Hypershift-Default.yaml")
	}
	// Pre-version rules merge by their text: the later ExternalDNSProvider
	// file keeps the earlier BareMetalPlatform file's gated rule.
	for _, name := range []string{"controlplanes-Hypershift-TechPreviewNoUpgrade.crd.yaml", "controlplanes-SelfManagedHA-CustomNoUpgrade.crd.yaml"} {
		if !has(name, "exactly one zone") || !has(name, "names its zones") {
			t.Errorf("%s lacks the gated or the plain CEL rule of spec", name)
		}
	}
}

// installerSelect picks the manifests of CRD name for a feature set the way
// an operator's installer does: the feature-set annotation compared with ==.
func installerSelect(t *testing.T, files map[string][]byte, name, set string) []string {
	t.Helper()
	var picked []string
	for _, file := range sortedKeys(files) {
		var c crd
		if err := yaml.Unmarshal(files[file], &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if c.Metadata.Name == name && c.Metadata.Annotations[featureSet] == set {
			picked = append(picked, file)
		}
	}
	return picked
}

func checkInstallerSelection(t *testing.T) {
	files := crdManifests(t)
	const name = "controlplanesnapshots.fleet.example.com"
	for set, want := range map[string][]string{
		"TechPreviewNoUpgrade": {"controlplanesnapshots-TechPreviewNoUpgrade.crd.yaml"},
		"CustomNoUpgrade":      {"controlplanesnapshots-CustomNoUpgrade.crd.yaml"},
		"Default":              nil,
	} {
		if got := installerSelect(t, files, name, set); !slices.Equal(got, want) {
			t.Errorf("installer picks %v for %s, want %v", got, set, want)
		}
	}
}
