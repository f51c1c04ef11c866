package manifestmerge

import (
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// fileNameAnnotations are the stage 1 annotations giving the
// "0000_50_my-operator_01_<plural>" pattern.
var fileNameAnnotations = []string{
	manifest.FilenameRunLevelAnnotation, "0000_50",
	manifest.FilenameOperatorAnnotation, "my-operator",
	manifest.FilenameOrderingAnnotation, "01",
}

func with(base []string, more ...string) []string {
	return append(append([]string(nil), base...), more...)
}

// allFixed lists every fixed feature set, for rules on in all of them.
var allFixed = []string{"Default", "DevPreviewNoUpgrade", "OKD", "TechPreviewNoUpgrade"}

// Each test below pins one shape of output that real API groups produce
// (docs/reference-rules.md, "Which files are written" and "The example
// group"); the golden directory under
// testdata/golden/ holds the expected zz_generated.crd-manifests/.

// Every tuple yields the same CRD: one file, no suffix, both profiles, no
// feature-set annotation.
func TestShapeSameEverywhere(t *testing.T) {
	goldenCase(t, "same-everywhere", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, nil),
	}, examplePayload())
}

// The CRD exists only where its type's gate is on and is identical there:
// one file annotated with those feature sets (operator and ordering only in
// the name).
func TestShapeOnlySomeFeatureSets(t *testing.T) {
	goldenCase(t, "only-some-feature-sets", map[string]string{
		widgetsGated + "Example.yaml": crdSource(gated([]string{"Example"},
			manifest.FilenameOperatorAnnotation, "my-operator", manifest.FilenameOrderingAnnotation, "01"), []string{"name"}, nil),
	}, examplePayload())
}

// Feature sets differ: every feature set gets its own file, identical
// ones included (Default and OKD, DevPreviewNoUpgrade and CustomNoUpgrade).
func TestShapePerFeatureSet(t *testing.T) {
	goldenCase(t, "per-feature-set", map[string]string{
		widgetsGated + "AAA_ungated.yaml":      crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsGated + "Example.yaml":          crdSource(gated([]string{"Example"}, fileNameAnnotations...), []string{"name", "coolNewField"}, nil),
		widgetsGated + "Example+Example2.yaml": crdSource(gated([]string{"Example", "Example2"}, fileNameAnnotations...), []string{"name", "coolNewField", "evenCoolerField"}, nil),
	}, examplePayload())
}

// A gate on for one profile in every fixed feature set adds a field: that
// profile gets one file without a feature-set annotation, the other one
// file per feature set (its CustomNoUpgrade has the field, the rest not).
func TestShapeProfileOnlyGate(t *testing.T) {
	payload := testPayload(defaultVersions, []string{"HypershiftThing"},
		gateRule{gate: "HypershiftThing", featureSets: allFixed, profiles: []int{0}})
	goldenCase(t, "profile-only-gate", map[string]string{
		widgetsGated + "AAA_ungated.yaml":     crdSource(gated([]string{""}), []string{"name"}, nil),
		widgetsGated + "HypershiftThing.yaml": crdSource(gated([]string{"HypershiftThing"}), []string{"name", "hostedField"}, nil),
	}, payload)
}

// A type gated by a gate on for one profile in every fixed feature set:
// -SelfManagedHA without a feature-set annotation, -Hypershift annotated
// CustomNoUpgrade.
func TestShapeTypeGatedOnOneProfile(t *testing.T) {
	payload := testPayload(defaultVersions, []string{"StandaloneThing"},
		gateRule{gate: "StandaloneThing", featureSets: allFixed, profiles: []int{1}})
	goldenCase(t, "type-gated-one-profile", map[string]string{
		widgetsGated + "StandaloneThing.yaml": crdSource(gated([]string{"StandaloneThing"}), []string{"name"}, nil),
	}, payload)
}

// Partial manifests restricted to one profile give a CRD annotated only
// with that profile.
func TestShapeProfileRestricted(t *testing.T) {
	goldenCase(t, "profile-restricted", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""},
			"include.release.openshift.io/self-managed-high-availability", "true"), []string{"name"}, nil),
	}, examplePayload())
}

// The release.openshift.io/feature-gate annotation of a type-gated CRD is
// kept, and replaces the feature-set annotation, when the CRD is the same
// wherever it exists.
func TestShapeFeatureGatePassThrough(t *testing.T) {
	goldenCase(t, "feature-gate-pass-through", map[string]string{
		widgetsGated + "Example.yaml": crdSource(gated([]string{"Example"}, manifest.FeatureGatePassThrough, "Example"), []string{"name"}, nil),
	}, examplePayload())
}

// When feature sets differ the feature-gate annotation is dropped: the
// per-feature-set files say where they apply.
func TestShapeFeatureGateDropped(t *testing.T) {
	goldenCase(t, "feature-gate-dropped", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, manifest.FeatureGatePassThrough, "Example"), []string{"name"}, nil),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}, manifest.FeatureGatePassThrough, "Example"), []string{"name", "coolNewField"}, nil),
	}, examplePayload())
}

// A gate on from major version 7 splits the CRD by version: version
// components in the names and the major-version annotation.
// CustomNoUpgrade ignores versions, so it has the field everywhere.
func TestShapeMajorVersionSplit(t *testing.T) {
	payload := testPayload(defaultVersions, []string{"FromSeven"},
		gateRule{gate: "FromSeven", featureSets: allFixed, versions: []int{7, 8, 9, 10}})
	goldenCase(t, "major-version-split", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsGated + "FromSeven.yaml":   crdSource(gated([]string{"FromSeven"}, fileNameAnnotations...), []string{"name", "newField"}, nil),
	}, payload)
}

// A manifest annotated with major versions 5 and 6 takes part in both (the
// reference took part only when the list was exactly one version); the
// other versions are not consecutive, hence the "4,7,8,9,10" component.
func TestShapeManifestMajorVersionList(t *testing.T) {
	goldenCase(t, "manifest-major-version-list", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}), []string{"name"}, nil),
		widgetsGated + "Middle.yaml":      crdSource(gated([]string{""}, manifest.MajorVersionAnnotation, "5,6"), []string{"name", "middleField"}, nil),
	}, examplePayload())
}

// A manual override adds a scale subresource to the generated v1 on
// SelfManagedHA only (the example of docs/pipeline.md).
func TestShapeOverrideAddsScaleForOneProfile(t *testing.T) {
	override := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    feature-gate.release.openshift.io/: "true"
    include.release.openshift.io/self-managed-high-availability: "true"
  name: widgets.example.openshift.io
spec:
  versions:
  - name: v1
    subresources:
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.readyReplicas
`
	goldenCase(t, "override-scale-one-profile", map[string]string{
		widgetsGated + "AAA_ungated.yaml":       crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsOverrides + "SelfManagedHA.yaml": override,
	}, examplePayload())
}

// An override deletes annotations with the "key-" form.
func TestShapeOverrideDeletesAnnotation(t *testing.T) {
	override := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    api-approved.openshift.io-: "true"
    capability.openshift.io/name-: ""
  name: widgets.example.openshift.io
`
	goldenCase(t, "override-deletes-annotation", map[string]string{
		widgetsGated + "AAA_ungated.yaml":     crdSource(gated([]string{""}, manifest.CapabilityAnnotation, "Console", "keep.example.test/note", "kept"), []string{"name"}, nil),
		widgetsOverrides + "AAA_ungated.yaml": override,
	}, examplePayload())
}

// A CRD can mix kinds of files: -Default, -OKD and -TechPreviewNoUpgrade
// (the same on both profiles) next to per-profile DevPreviewNoUpgrade and
// CustomNoUpgrade files, because manifests restricted to one profile add
// different fields there.
func TestShapeMixedKinds(t *testing.T) {
	payload := testPayload(defaultVersions, []string{"Example", "DevOnly"},
		gateRule{gate: "Example", featureSets: []string{"TechPreviewNoUpgrade", "DevPreviewNoUpgrade"}},
		gateRule{gate: "DevOnly", featureSets: []string{"DevPreviewNoUpgrade"}})
	goldenCase(t, "mixed-kinds", map[string]string{
		widgetsGated + "AAA_ungated.yaml": crdSource(gated([]string{""}, fileNameAnnotations...), []string{"name"}, nil),
		widgetsGated + "Example.yaml":     crdSource(gated([]string{"Example"}, fileNameAnnotations...), []string{"name", "coolNewField"}, nil),
		widgetsGated + "DevOnly.yaml": crdSource(gated([]string{"DevOnly"}, with(fileNameAnnotations,
			"include.release.openshift.io/ibm-cloud-managed", "true")...), []string{"name", "hostedDevField"}, nil),
		widgetsGated + "DevOnly+Example.yaml": crdSource(gated([]string{"DevOnly", "Example"}, with(fileNameAnnotations,
			"include.release.openshift.io/self-managed-high-availability", "true")...), []string{"name", "coolNewField", "standaloneDevField"}, nil),
	}, payload)
}
