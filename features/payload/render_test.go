package payload

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// testRegistry declares gates covering every grouping situation: a gate on
// everywhere, one per profile, one that starts at version 5 and one named only
// for version 12 (outside the default range).
func testRegistry(t *testing.T) *featuregate.Registry {
	t.Helper()
	r := featuregate.NewRegistry()
	declare := func(name featuregate.FeatureGateName, enable func(*featuregate.FeatureGateBuilder)) {
		b := r.NewFeatureGate(name).OwningComponent("c").ContactPerson("p").
			ProductScope(featuregate.ProductScopeOCP).
			EnhancementPR("https://github.com/openshift/enhancements/pull/1")
		enable(b)
		if _, err := b.Register(); err != nil {
			t.Fatal(err)
		}
	}
	declare("Stable", func(b *featuregate.FeatureGateBuilder) {
		b.EnableIn(featuregate.Default, featuregate.OKD, featuregate.TechPreviewNoUpgrade, featuregate.DevPreviewNoUpgrade)
	})
	declare("HypershiftOnly", func(b *featuregate.FeatureGateBuilder) {
		b.EnableForClusterProfile(featuregate.Hypershift, featuregate.TechPreviewNoUpgrade)
	})
	declare("FromFive", func(b *featuregate.FeatureGateBuilder) {
		b.Enable(featuregate.InDevPreviewNoUpgrade(), featuregate.InVersion(5, featuregate.VersionGreaterThanOrEqual))
	})
	declare("Twelve", func(b *featuregate.FeatureGateBuilder) {
		b.Enable(featuregate.InDefault(), featuregate.InOKD(), featuregate.InVersion(12, featuregate.VersionEqual))
	})
	return r
}

func renderTest(t *testing.T, r *featuregate.Registry) []File {
	t.Helper()
	files, err := Render(r.AllFeatureSets(), "")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestRenderFileNames(t *testing.T) {
	var got []string
	for _, f := range renderTest(t, testRegistry(t)) {
		got = append(got, f.Name)
	}
	// 12 is not adjacent to 10, so it never joins the 4-10 run even where the
	// lists are equal (TechPreviewNoUpgrade).
	want := []string{
		"featureGate-12-Hypershift-Default.yaml",
		"featureGate-12-Hypershift-DevPreviewNoUpgrade.yaml",
		"featureGate-12-Hypershift-OKD.yaml",
		"featureGate-12-Hypershift-TechPreviewNoUpgrade.yaml",
		"featureGate-12-SelfManagedHA-Default.yaml",
		"featureGate-12-SelfManagedHA-DevPreviewNoUpgrade.yaml",
		"featureGate-12-SelfManagedHA-OKD.yaml",
		"featureGate-12-SelfManagedHA-TechPreviewNoUpgrade.yaml",
		"featureGate-4-10-Hypershift-Default.yaml",
		"featureGate-4-10-Hypershift-OKD.yaml",
		"featureGate-4-10-Hypershift-TechPreviewNoUpgrade.yaml",
		"featureGate-4-10-SelfManagedHA-Default.yaml",
		"featureGate-4-10-SelfManagedHA-OKD.yaml",
		"featureGate-4-10-SelfManagedHA-TechPreviewNoUpgrade.yaml",
		"featureGate-4-Hypershift-DevPreviewNoUpgrade.yaml",
		"featureGate-4-SelfManagedHA-DevPreviewNoUpgrade.yaml",
		"featureGate-5-10-Hypershift-DevPreviewNoUpgrade.yaml",
		"featureGate-5-10-SelfManagedHA-DevPreviewNoUpgrade.yaml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("files:\n%q\nwant\n%q", got, want)
	}
}

// TestRenderContent pins the exact bytes of one file, including the empty
// list written as [] and the Default spelling rules.
func TestRenderContent(t *testing.T) {
	r := featuregate.NewRegistry()
	_, err := r.NewFeatureGate("OnlyGate").OwningComponent("c").ContactPerson("p").
		ProductScope(featuregate.ProductScopeKubernetes).
		EnhancementPR("https://github.com/kubernetes/enhancements/issues/9").
		EnableIn(featuregate.TechPreviewNoUpgrade).Register()
	if err != nil {
		t.Fatal(err)
	}
	files, err := Render(r.AllFeatureSets(), "4.99.0")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]string{}
	for _, f := range files {
		byName[f.Name] = string(f.Data)
	}
	if len(files) != 8 {
		t.Errorf("%d files, want 8 (one per profile and fixed feature set)", len(files))
	}
	want := `{
    "apiVersion": "config.openshift.io/v1",
    "kind": "FeatureGate",
    "metadata": {
        "annotations": {
            "include.release.openshift.io/ibm-cloud-managed": "false-except-for-the-config-operator",
            "release.openshift.io/feature-set": "Default",
            "release.openshift.io/major-version": "4,5,6,7,8,9,10"
        },
        "name": "cluster"
    },
    "spec": {},
    "status": {
        "featureGates": [
            {
                "disabled": [
                    {
                        "name": "OnlyGate"
                    }
                ],
                "enabled": [],
                "version": "4.99.0"
            }
        ]
    }
}
`
	if got := byName["featureGate-4-10-Hypershift-Default.yaml"]; got != want {
		t.Errorf("Default file:\n%s\nwant\n%s", got, want)
	}
	want = `{
    "apiVersion": "config.openshift.io/v1",
    "kind": "FeatureGate",
    "metadata": {
        "annotations": {
            "include.release.openshift.io/self-managed-high-availability": "false-except-for-the-config-operator",
            "release.openshift.io/feature-set": "TechPreviewNoUpgrade",
            "release.openshift.io/major-version": "4,5,6,7,8,9,10"
        },
        "name": "cluster"
    },
    "spec": {
        "featureSet": "TechPreviewNoUpgrade"
    },
    "status": {
        "featureGates": [
            {
                "disabled": [],
                "enabled": [
                    {
                        "name": "OnlyGate"
                    }
                ],
                "version": "4.99.0"
            }
        ]
    }
}
`
	if got := byName["featureGate-4-10-SelfManagedHA-TechPreviewNoUpgrade.yaml"]; got != want {
		t.Errorf("TechPreviewNoUpgrade file:\n%s\nwant\n%s", got, want)
	}
}

// TestRenderReadRoundTrip reads rendered files back and expects the registry's
// answer for every tuple.
func TestRenderReadRoundTrip(t *testing.T) {
	r := testRegistry(t)
	d, err := ReadFiles(renderTest(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Versions(), r.Versions()) {
		t.Errorf("versions read back %v, registry has %v", d.Versions(), r.Versions())
	}
	for _, tg := range r.AllFeatureSets() {
		m, ok := d.Lookup(tg.Version, tg.ClusterProfile, tg.FeatureSet)
		if !ok {
			t.Errorf("%v: no manifest read back", tg.Tuple)
			continue
		}
		if !reflect.DeepEqual(featuregate.GateLists{Enabled: m.Enabled, Disabled: m.Disabled}, tg.GateLists) {
			t.Errorf("%v: read back %v/%v, want %v", tg.Tuple, m.Enabled, m.Disabled, tg.GateLists)
		}
	}
}

func TestRenderRejectsBadTuples(t *testing.T) {
	ok := featuregate.TupleGates{Tuple: featuregate.Tuple{Version: 4, ClusterProfile: featuregate.Hypershift, FeatureSet: featuregate.Default}}
	custom, single := ok, ok
	custom.FeatureSet = featuregate.CustomNoUpgrade
	single.ClusterProfile = featuregate.SingleNode
	for name, tuples := range map[string][]featuregate.TupleGates{
		"custom":    {custom},
		"singleton": {single},
		"twice":     {ok, ok},
	} {
		if _, err := Render(tuples, ""); err == nil {
			t.Errorf("%s: Render accepted %v", name, tuples)
		}
	}
}

func TestWriteDirAndVerifyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "featuregates")
	files := renderTest(t, testRegistry(t))

	if err := VerifyDir(dir, files); !isStale(err, len(files)) {
		t.Errorf("missing directory: want every file reported missing, got %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "featureGate-Hypershift-Default.yaml")
	if err := os.WriteFile(stale, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	if err := VerifyDir(dir, files); err != nil {
		t.Fatalf("after WriteDir: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(files) {
		t.Errorf("%d entries after WriteDir, want %d (stale and temporary files removed)", len(entries), len(files))
	}

	// Rewriting identical content leaves files untouched.
	past := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	first := filepath.Join(dir, files[0].Name)
	must(t, os.Chtimes(first, past, past))
	must(t, WriteDir(dir, files))
	if info, err := os.Stat(first); err != nil || !info.ModTime().Equal(past) {
		t.Errorf("an unchanged file was rewritten: %v %v", info.ModTime(), err)
	}

	// Change one file, remove one, add one: each is reported, nothing written.
	changed := filepath.Join(dir, files[0].Name)
	missing := filepath.Join(dir, files[1].Name)
	extra := filepath.Join(dir, "featureGate-99-Hypershift-OKD.yaml")
	must(t, os.WriteFile(changed, append([]byte("#\n"), files[0].Data...), 0o644))
	must(t, os.Remove(missing))
	must(t, os.WriteFile(extra, []byte("{}"), 0o644))
	err := VerifyDir(dir, files)
	var se *StaleError
	if !asStale(err, &se) {
		t.Fatalf("VerifyDir = %v, want *StaleError", err)
	}
	want := map[string]DifferenceKind{changed: Changed, missing: Missing, extra: Extra}
	if len(se.Differences) != len(want) {
		t.Errorf("differences %v, want %v", se.Differences, want)
	}
	for _, d := range se.Differences {
		if want[d.Path] != d.Kind {
			t.Errorf("difference %v, want kind %q", d, want[d.Path])
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("VerifyDir wrote a file")
	}
	if _, err := os.Stat(extra); err != nil {
		t.Error("VerifyDir removed a file")
	}

	// A subdirectory stops WriteDir before it writes anything.
	must(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	if err := WriteDir(dir, files); err == nil {
		t.Error("WriteDir accepted a subdirectory")
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("WriteDir wrote files before failing")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func asStale(err error, target **StaleError) bool {
	return errors.As(err, target)
}

func isStale(err error, n int) bool {
	var se *StaleError
	return asStale(err, &se) && len(se.Differences) == n
}
