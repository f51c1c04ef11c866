// Package payload renders, verifies and reads the payload FeatureGate
// manifests (payload-manifests/featuregates/*.yaml) and renders features.md
// from them.
//
// # The payload directory
//
// For every rendered ClusterProfile and every fixed FeatureSet the directory
// holds one FeatureGate object per run of consecutive major versions that
// share the same enabled and disabled gates. A file is named
// featureGate-<range>-<Profile>-<FeatureSet>.yaml, where <range> is "N" or
// "N-M". Its content is indented JSON (which is also YAML) of this shape:
//
//	metadata.annotations:
//	  <profile annotation key>: false-except-for-the-config-operator
//	  release.openshift.io/feature-set: <FeatureSet>
//	  release.openshift.io/major-version: <versions, ascending, comma-joined>
//	spec.featureSet: <FeatureSet> ("" or absent for Default)
//	status.featureGates[0]: {enabled: [{name}], disabled: [{name}], version}
//
// The profile annotation value is never "true" so that the release payload
// does not apply the object, yet the object still says which profile it
// describes.
//
// # The pre-version format
//
// Before February 2026 the reference wrote featureGate-<Profile>-<FeatureSet>.yaml
// without the major-version (and feature-set) annotation, and real
// repositories still carry such directories, often as JSON with "#"
// comment lines. [DetectEra] tells the formats apart (a directory mixing
// them is an error); [ReadDir] reads either. In the pre-version format the
// feature sets are those of every file's spec.featureSet, and each
// rendered profile and feature set takes the gates of the file named for
// them, whatever its annotations say (a real operator repository ships a
// featureGate-SelfManagedHA-*.yaml whose profile annotation says
// Hypershift); its manifests have no
// versions and cover every version. [Era] names the reference's eras by
// the dated changes that alter its output ([Changes], internal/refera),
// which the three CRD stages follow.
//
// # Data flow
//
// [Render] turns the registry's answers ([featuregate.Registry.AllFeatureSets])
// into [File] values; [WriteDir] puts them on disk and [VerifyDir] compares
// them with what is on disk without writing. [ReadDir] (or [ReadFiles] for
// files rendered in memory) goes the other way and returns a [Directory] of
// [Manifest] values, which is what the CRD merge stage, test matchers and
// [RenderFeaturesMarkdown] consume. Consumers never need the registry itself:
// the payload directory is the contract between this repository and its
// readers.
package payload
