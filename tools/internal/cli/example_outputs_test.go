package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// TestExampleOutputsAsPredicted pins the committed example's merged files
// (docs/reference-rules.md, "The example group", with this repository's
// gates): v1 differs by feature set, so one
// file per feature set for both profiles; v1alpha1 exists identically only
// where Example is on, so one file annotated with those feature sets.
func TestExampleOutputsAsPredicted(t *testing.T) {
	const both = "ibm-cloud-managed,self-managed-high-availability"
	want := map[string]map[string]string{
		"v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-CustomNoUpgrade.crd.yaml":      {"fs": "CustomNoUpgrade", "profiles": both},
		"v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-Default.crd.yaml":              {"fs": "Default", "profiles": both},
		"v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-DevPreviewNoUpgrade.crd.yaml":  {"fs": "DevPreviewNoUpgrade", "profiles": both},
		"v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-OKD.crd.yaml":                  {"fs": "OKD", "profiles": both},
		"v1/zz_generated.crd-manifests/0000_50_my-operator_01_stableconfigtypes-TechPreviewNoUpgrade.crd.yaml": {"fs": "TechPreviewNoUpgrade", "profiles": both},
		"v1alpha1/zz_generated.crd-manifests/0000_50_my-operator_01_notstableconfigtypes.crd.yaml":             {"fs": "CustomNoUpgrade,DevPreviewNoUpgrade,TechPreviewNoUpgrade", "profiles": both},
	}
	base := "../../../example"
	var got []string
	for _, v := range []string{"v1", "v1alpha1"} {
		matches, err := filepath.Glob(filepath.Join(base, v, "zz_generated.crd-manifests", "*.crd.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range matches {
			rel, _ := filepath.Rel(base, m)
			got = append(got, filepath.ToSlash(rel))
		}
	}
	sort.Strings(got)
	var names []string
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(got, "\n") != strings.Join(names, "\n") {
		t.Fatalf("merged files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(names, "\n"))
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(base, name))
		if err != nil {
			t.Fatal(err)
		}
		obj, err := manifest.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		ann := obj["metadata"].(map[string]any)["annotations"].(map[string]any)
		if got := ann[manifest.FeatureSetAnnotation]; got != want[name]["fs"] {
			t.Errorf("%s: feature-set annotation = %v, want %s", name, got, want[name]["fs"])
		}
		var profiles []string
		for k, v := range ann {
			if p, ok := strings.CutPrefix(k, manifest.IncludeAnnotationPrefix); ok && v == "true" {
				profiles = append(profiles, p)
			}
		}
		sort.Strings(profiles)
		if strings.Join(profiles, ",") != want[name]["profiles"] {
			t.Errorf("%s: profiles = %v, want %s", name, profiles, want[name]["profiles"])
		}
		if ann[manifest.MergedAnnotation] != "true" || ann[manifest.ApprovedAnnotation] == nil {
			t.Errorf("%s: merged-by-featuregates or api-approved annotation missing", name)
		}
		for k := range ann {
			for _, gone := range []string{manifest.FeatureGateAnnotationPrefix, manifest.FilenameAnnotationPrefix, manifest.PartialFilenameAnnotationPrefix} {
				if strings.HasPrefix(k, gone) {
					t.Errorf("%s: annotation %s should have been removed by the merge", name, k)
				}
			}
		}
	}
	for _, v := range []string{"v1", "v1alpha1"} {
		doc, err := os.ReadFile(filepath.Join(base, v, "zz_generated.crd-manifests", "doc.go"))
		if err != nil || string(doc) != "package example_"+v+"_crdmanifests\n" {
			t.Errorf("%s doc.go = %q, %v", v, doc, err)
		}
	}
}
