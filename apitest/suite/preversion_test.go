package suite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/payload"
)

// operatorRepo is the version directory of the operator repository fixture
// of the e2e tests: pre-version payload files (JSON with # comments;
// featureGate-SelfManagedHA-Default.yaml annotated for Hypershift), the
// CRD files generated from them and their suites (tests/<crd>/
// *.testsuite.yaml). Read only.
const operatorRepo = "../../tools/internal/e2e/testdata/operatorrepo/api/fleet/v1beta1"

// preVersionTree assembles an operator repository's API tree from the
// fixture (suites named <X>.testsuite.yaml, a pre-version payload): its
// suites in tests/, its generated CRD files in
// zz_generated.crd-manifests/ and its payload files in
// payload-manifests/featuregates/.
func preVersionTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "api")
	for from, to := range map[string]string{
		operatorRepo + "/tests":                      "tests",
		operatorRepo + "/zz_generated.crd-manifests": "zz_generated.crd-manifests",
		operatorRepo + "/featuregates":               "payload-manifests/featuregates",
	} {
		if err := os.CopyFS(filepath.Join(root, to), os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestPreparePreVersionPayload matches suites with the CRD files of a
// pre-version tree: the payload file of a profile and feature set is the
// one its name says, whatever its annotations, and there are no major
// versions.
func TestPreparePreVersionPayload(t *testing.T) {
	root := preVersionTree(t)
	payloadDir := filepath.Join(root, "payload-manifests", "featuregates")
	if era, err := payload.DetectEra(payloadDir); err != nil || era.Versioned() {
		t.Fatalf("the fixture's payload is not pre-version: %v, %v", era, err)
	}
	for _, era := range []payload.Era{"", payload.Era202601, payload.Era202509} {
		plan, err := Prepare(Options{BaseDir: root, PayloadDir: payloadDir, Era: era, Strict: true})
		if err != nil {
			t.Fatalf("era %q: %v", era, err)
		}
		got := map[string][]string{}
		for _, batch := range plan.Batches {
			for _, v := range batch {
				for _, s := range v.Suites {
					name := filepath.Base(filepath.Dir(s.Path)) + "/" + strings.TrimSuffix(filepath.Base(s.Path), ".testsuite.yaml")
					got[name] = append(got[name], strings.TrimSuffix(filepath.Base(v.File.Path), ".crd.yaml"))
				}
			}
		}
		for name := range got {
			slices.Sort(got[name])
		}
		const cp, snap = "controlplanes.fleet.example.com/", "controlplanesnapshots.fleet.example.com/"
		want := map[string][]string{
			cp + "AAA_ungated": {"controlplanes-Hypershift-CustomNoUpgrade", "controlplanes-Hypershift-Default", "controlplanes-Hypershift-TechPreviewNoUpgrade",
				"controlplanes-SelfManagedHA-CustomNoUpgrade", "controlplanes-SelfManagedHA-Default", "controlplanes-SelfManagedHA-TechPreviewNoUpgrade"},
			// featureGate-SelfManagedHA-Default.yaml disables the gate; its
			// Hypershift annotation does not make it Hypershift's.
			cp + "ExternalDNSProvider": {"controlplanes-Hypershift-CustomNoUpgrade", "controlplanes-Hypershift-Default", "controlplanes-Hypershift-TechPreviewNoUpgrade",
				"controlplanes-SelfManagedHA-CustomNoUpgrade", "controlplanes-SelfManagedHA-TechPreviewNoUpgrade"},
			cp + "-ExternalDNSProvider": {"controlplanes-SelfManagedHA-Default"},
			cp + "BareMetalPlatform": {"controlplanes-Hypershift-CustomNoUpgrade", "controlplanes-Hypershift-TechPreviewNoUpgrade",
				"controlplanes-SelfManagedHA-CustomNoUpgrade", "controlplanes-SelfManagedHA-TechPreviewNoUpgrade"},
			cp + "-BareMetalPlatform": {"controlplanes-Hypershift-Default", "controlplanes-SelfManagedHA-Default"},
			// A CRD gated as a whole: its files are those of the feature
			// sets that enable the gate, each serving both profiles.
			snap + "ControlPlaneSnapshots":                    {"controlplanesnapshots-CustomNoUpgrade", "controlplanesnapshots-TechPreviewNoUpgrade"},
			"placementpolicies.fleet.example.com/AAA_ungated": {"placementpolicies"},
		}
		for name, files := range want {
			if !slices.Equal(got[name], files) {
				t.Errorf("era %q: %s runs against %v, want %v", era, name, got[name], files)
			}
		}
		if len(got) != len(want) {
			t.Errorf("era %q: suites %v, want those of %v", era, got, want)
		}
	}

	// The decision names the payload file that made it.
	d, err := payload.ReadDir(payloadDir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := ReadCRDDir(filepath.Join(root, generatedDir))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseFile(filepath.Join(root, "tests", "controlplanes.fleet.example.com", "-ExternalDNSProvider.testsuite.yaml"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	decisions, err := Match(s, files, d)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, dec := range decisions {
		reasons[filepath.Base(dec.File.Path)] = dec.Reason
	}
	for file, want := range map[string]string{
		"controlplanes-SelfManagedHA-Default.crd.yaml": "-ExternalDNSProvider in featureGate-SelfManagedHA-Default.yaml",
		"controlplanes-Hypershift-Default.crd.yaml":    "ExternalDNSProvider is enabled in featureGate-Hypershift-Default.yaml",
	} {
		if reasons[file] != want {
			t.Errorf("decision for %s: %q, want %q", file, reasons[file], want)
		}
	}

	// A versioned era forced on a pre-version directory is an error, not
	// a silently empty payload.
	if _, err := Prepare(Options{BaseDir: root, PayloadDir: payloadDir, Era: payload.Era202603}); err == nil ||
		!strings.Contains(err.Error(), "has no "+payload.MajorVersionAnnotation+" annotation") {
		t.Errorf("era %s on a pre-version directory: %v", payload.Era202603, err)
	}
}
