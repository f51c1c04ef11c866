package manifestmerge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

var ungatedWidget = crdSource(gated([]string{""}), []string{"name"}, nil)

// TestInputErrors feeds broken inputs. Each problem is reported with the
// file (and line when the YAML parser knows it), and nothing is written
// for the version directory.
func TestInputErrors(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name: "unknown field",
			files: map[string]string{widgetsGated + "Example.yaml": crdSource(gated([]string{"Example"}), []string{"name"}, func(obj map[string]any) {
				obj["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["bogus"] = true
			})},
			want: `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: does not fit the CustomResourceDefinition schema: .spec.versions[name="v1"].bogus: field not declared in schema`,
		},
		{
			name:  "bad YAML",
			files: map[string]string{widgetsGated + "Example.yaml": "apiVersion: apiextensions.k8s.io/v1\nkind: [CustomResourceDefinition\n"},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml:2: invalid YAML: error converting YAML to JSON: yaml: line 2: did not find expected ',' or ']'",
		},
		{
			name:  "non-YAML file",
			files: map[string]string{widgetsGated + "notes.txt": "remember the milk\n"},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/notes.txt: unexpected file: a CRD directory holds only .yaml manifests",
		},
		{
			name:  "sub-directory",
			files: map[string]string{widgetsGated + "nested/Example.yaml": ungatedWidget},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/nested: unexpected directory: a CRD directory holds only .yaml manifests",
		},
		{
			name:  "sub-directory in overrides",
			files: map[string]string{widgetsOverrides + "nested/Example.yaml": ungatedWidget},
			want:  "error: example/v1/manual-override-crd-manifests/widgets.example.openshift.io/nested: unexpected directory: a CRD directory holds only .yaml manifests",
		},
		{
			name:  "two documents",
			files: map[string]string{widgetsGated + "Example.yaml": ungatedWidget + "---\n" + ungatedWidget},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: holds 2 YAML documents; a manifest is exactly one CustomResourceDefinition",
		},
		{
			name:  "empty file",
			files: map[string]string{widgetsGated + "Example.yaml": "# nothing\n"},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: empty manifest",
		},
		{
			name:  "wrong kind",
			files: map[string]string{widgetsGated + "Example.yaml": strings.Replace(ungatedWidget, "kind: CustomResourceDefinition", "kind: ConfigMap", 1)},
			want:  `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: kind: is "ConfigMap", expected "CustomResourceDefinition"`,
		},
		{
			name:  "name of another CRD",
			files: map[string]string{widgetsGated + "Example.yaml": strings.Replace(ungatedWidget, "name: widgets.example.openshift.io", "name: gadgets.example.openshift.io", 1)},
			want:  `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: metadata.name: is "gadgets.example.openshift.io" but the manifest is in the directory of CRD widgets.example.openshift.io`,
		},
		{
			name:  "bad major-version annotation",
			files: map[string]string{widgetsGated + "Example.yaml": crdSource(gated([]string{""}, "release.openshift.io/major-version", "4-6"), []string{"name"}, nil)},
			want:  `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: metadata.annotations.release.openshift.io/major-version: "4-6" is not a comma-separated list of major versions`,
		},
		{
			name:  "annotation that is not a string",
			files: map[string]string{widgetsGated + "Example.yaml": strings.Replace(ungatedWidget, `feature-gate.release.openshift.io/: "true"`, `feature-gate.release.openshift.io/: true`, 1)},
			want:  `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/Example.yaml: metadata.annotations.feature-gate.release.openshift.io/: is true, not a string; quote the value`,
		},
		{
			name:  "directory in the output directory",
			files: map[string]string{widgetsOutputs + "/old/x.crd.yaml": "x: 1\n"},
			want:  "error: example/v1/zz_generated.crd-manifests/old: unexpected directory in the output directory; remove it",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{widgetsGated + "AAA_ungated.yaml": ungatedWidget}
			for k, v := range c.files {
				files[k] = v
			}
			base := testtree.Write(t, files)
			run := runStage(t, base, discoveryFor(base, exampleGroup), examplePayload())
			if run.err != nil {
				t.Fatalf("Run: %v", run.err)
			}
			if got := run.diagnostics(); got != c.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.want)
			}
			if c.name == "directory in the output directory" {
				return // outputs are written; only the directory is refused
			}
			if _, err := os.Stat(filepath.Join(base, widgetsOutputs)); err == nil {
				t.Errorf("outputs were written despite the error")
			}
			if v := run.result.Versions[0]; !v.Failed || len(v.Written) != 0 {
				t.Errorf("version result = %+v; want failed with nothing written", *v)
			}
		})
	}
}

// TestWarnings covers inputs that are suspicious but do not stop the run.
func TestWarnings(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
		// outputs lists the expected output names besides doc.go.
		outputs []string
	}{
		{
			name: "overrides pertinent where no generated manifest is",
			files: map[string]string{
				widgetsGated + "Example.yaml":         crdSource(gated([]string{"Example"}), []string{"name"}, nil),
				widgetsOverrides + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"extra"}, nil),
			},
			want:    "warning: example/v1/manual-override-crd-manifests/widgets.example.openshift.io: manual overrides apply to 28 tuple(s) where no generated manifest does (first: Hypershift/Default/4); no CRD is produced for them",
			outputs: []string{"widgets.crd.yaml"},
		},
		{
			name: "overrides for a CRD that is not generated",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": ungatedWidget,
				"example/v1/" + OverridesDirName + "/gadgets.example.openshift.io/AAA_ungated.yaml": ungatedWidget,
				"example/v1/" + OverridesDirName + "/README.md":                                     "overrides go here\n",
			},
			want: "warning: example/v1/manual-override-crd-manifests/README.md: ignored: overrides belong in a directory named after their CRD\n" +
				"warning: example/v1/manual-override-crd-manifests/gadgets.example.openshift.io: ignored: there is no zz_generated.featuregated-crd-manifests/gadgets.example.openshift.io directory, so no CRD named gadgets.example.openshift.io is generated",
			outputs: []string{"widgets.crd.yaml"},
		},
		{
			name: "unknown profile on a manifest",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, "include.release.openshift.io/single-node-developer", "true"), []string{"name"}, nil),
			},
			want: "warning: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/AAA_ungated.yaml: metadata.annotations.include.release.openshift.io/single-node-developer: " +
				"unknown cluster profile; known profiles are include.release.openshift.io/ibm-cloud-managed, include.release.openshift.io/self-managed-high-availability",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := testtree.Write(t, c.files)
			run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
			if got := run.diagnostics(); got != c.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.want)
			}
			got := testtree.Paths(testtree.Snapshot(t, filepath.Join(base, widgetsOutputs)))
			want := append([]string{DocFileName}, c.outputs...)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("outputs = %v, want %v", got, want)
			}
		})
	}
}

// TestEmptyCRDDirectory warns about a CRD directory without manifests.
func TestEmptyCRDDirectory(t *testing.T) {
	base := testtree.Write(t, map[string]string{widgetsGated + "AAA_ungated.yaml": ungatedWidget})
	if err := os.MkdirAll(filepath.Join(base, "example/v1", FeatureGatedDirName, "gadgets.example.openshift.io"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	want := "warning: example/v1/zz_generated.featuregated-crd-manifests/gadgets.example.openshift.io: contains no manifest; no CRD is produced"
	if got := run.diagnostics(); got != want {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}

// TestPayloadErrors covers payload FeatureGate files the stage cannot use.
func TestPayloadErrors(t *testing.T) {
	base := testtree.Write(t, map[string]string{widgetsGated + "AAA_ungated.yaml": ungatedWidget})
	disc := discoveryFor(base, exampleGroup)

	t.Run("no versioned file", func(t *testing.T) {
		legacy := examplePayload()
		for i := range legacy.Manifests {
			legacy.Manifests[i].Versions = nil
		}
		for _, payload := range []*fgpayload.Directory{{Path: "payload"}, legacy} {
			run := runStage(t, base, disc, payload)
			want := "no versioned FeatureGate manifests found in payload: stage 3 needs files carrying the release.openshift.io/major-version annotation and a cluster profile annotation"
			if run.err == nil || run.err.Error() != want {
				t.Errorf("error = %v\nwant %s", run.err, want)
			}
		}
	})
	t.Run("bad files", func(t *testing.T) {
		// features/payload never reads such a directory; the stage still
		// checks one built by hand.
		payload := examplePayload()
		lookup := func(fs featuregate.FeatureSetName) fgpayload.Manifest {
			m, ok := payload.Lookup(4, featuregate.Hypershift, fs)
			if !ok {
				t.Fatalf("no manifest for 4/Hypershift/%s", fs)
			}
			return m
		}
		unknown := lookup(featuregate.Default)
		unknown.FileName = "featureGate-4-SingleNode-Default.yaml"
		unknown.ClusterProfile = featuregate.SingleNode
		dup := lookup(featuregate.DevPreviewNoUpgrade)
		dup.FileName = "featureGate-4-Hypershift-DevPreviewNoUpgrade-copy.yaml"
		custom := lookup(featuregate.Default)
		custom.FileName = "featureGate-4-Hypershift-CustomNoUpgrade.yaml"
		custom.FeatureSet = featuregate.CustomNoUpgrade
		payload.Manifests = append(payload.Manifests, unknown, dup, custom)
		run := runStage(t, base, disc, payload)
		if run.err != nil {
			t.Fatal(run.err)
		}
		want := "error: payload/featureGate-4-Hypershift-CustomNoUpgrade.yaml: spec.featureSet: CustomNoUpgrade FeatureGate manifests are not rendered: that feature set selects every partial manifest\n" +
			"error: payload/featureGate-4-Hypershift-DevPreviewNoUpgrade-copy.yaml: describes Hypershift DevPreviewNoUpgrade version 4, like payload/featureGate-4-Hypershift-DevPreviewNoUpgrade.yaml\n" +
			"error: payload/featureGate-4-SingleNode-Default.yaml: include.release.openshift.io/single-node-developer: unknown cluster profile; known profiles are include.release.openshift.io/ibm-cloud-managed, include.release.openshift.io/self-managed-high-availability"
		if got := run.diagnostics(); got != want {
			t.Errorf("diagnostics:\n%s\nwant:\n%s", got, want)
		}
	})
}

// TestOutputNameProblems: a CRD whose output cannot be named, and two CRDs
// whose outputs would share a name.
func TestOutputNameProblems(t *testing.T) {
	noPlural := strings.Replace(ungatedWidget, "    plural: widgets\n", "", 1)
	otherGroup := strings.ReplaceAll(ungatedWidget, "widgets.example.openshift.io", "widgets.other.openshift.io")
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name:  "no plural",
			files: map[string]string{widgetsGated + "AAA_ungated.yaml": noPlural},
			want:  "error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io: spec.names.plural: the merged CRD has no plural name, so its output file cannot be named",
		},
		{
			name: "same output name",
			files: map[string]string{
				widgetsGated + "AAA_ungated.yaml": ungatedWidget,
				"example/v1/" + FeatureGatedDirName + "/widgets.other.openshift.io/AAA_ungated.yaml": otherGroup,
			},
			want: "error: example/v1/zz_generated.crd-manifests/widgets.crd.yaml: would be written for both widgets.example.openshift.io and widgets.other.openshift.io",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := testtree.Write(t, c.files)
			run := runStage(t, base, discoveryFor(base, exampleGroup), examplePayload())
			if got := run.diagnostics(); got != c.want {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", got, c.want)
			}
			if v := run.result.Versions[0]; !v.Failed || len(v.Written) != 0 {
				t.Errorf("version result = %+v; want failed with nothing written", *v)
			}
		})
	}
}

// TestEveryUnknownFieldIsReportedInOrder: structured-merge-diff names one
// unknown field per parse, chosen by map iteration; the stage reports all of
// them, sorted, every time.
func TestEveryUnknownFieldIsReportedInOrder(t *testing.T) {
	for i := 0; i < 5; i++ {
		base := testtree.Write(t, map[string]string{
			widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, func(obj map[string]any) {
				obj["zeta"] = 1
				obj["alpha"] = 2
				obj["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["bogus"] = true
			}),
		})
		run := runStage(t, base, discoveryFor(base, exampleGroup), examplePayload())
		want := `error: example/v1/zz_generated.featuregated-crd-manifests/widgets.example.openshift.io/AAA_ungated.yaml: does not fit the CustomResourceDefinition schema: ` +
			`.alpha: field not declared in schema; .spec.versions[name="v1"].bogus: field not declared in schema; .zeta: field not declared in schema`
		if got := run.diagnostics(); got != want {
			t.Fatalf("run %d:\n got: %s\nwant: %s", i, got, want)
		}
	}
}

// TestOverrideWithUnknownGateIsReported: an override gated by a gate the
// payload does not list would only ever apply in CustomNoUpgrade.
func TestOverrideWithUnknownGateIsReported(t *testing.T) {
	base := testtree.Write(t, map[string]string{
		widgetsGated + "AAA_ungated.yaml":                                                 crdSource(gated([]string{""}), []string{"name"}, nil),
		"example/v1/manual-override-crd-manifests/widgets.example.openshift.io/Typo.yaml": "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    feature-gate.release.openshift.io/Exampel: \"true\"\n  name: widgets.example.openshift.io\n",
	})
	run := mustRun(t, base, discoveryFor(base, exampleGroup), examplePayload())
	want := `warning: example/v1/manual-override-crd-manifests/widgets.example.openshift.io/Typo.yaml: metadata.annotations.feature-gate.release.openshift.io/Exampel: FeatureGate "Exampel" is not listed in the payload FeatureGate manifests, so this manifest only ever applies in CustomNoUpgrade; did you mean Example?`
	if got := run.diagnostics(); !strings.Contains(got, want) {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", got, want)
	}
}
