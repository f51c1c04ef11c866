// Package strictmarkers finds markers that no stage understands.
//
// The controller-tools collector silently skips comment lines that look like
// markers but match no registered definition. In an API tree that is a
// dangerous default: a typo such as +openshift:enable:FeatureGates=X, or a
// near miss such as +kubebuilder:Enum=a;b, ships a field ungated or
// unvalidated without a word. This package scans every comment line under the
// +openshift: and +kubebuilder: prefixes of the loaded API packages and
// reports each one that
//
//   - matches no marker definition of any stage, nor a known marker of
//     another generator that shares the prefix (deepcopy, RBAC, webhooks,
//     compatibility levels), with the closest known marker as a suggestion;
//   - matches a definition but fails to parse (a misspelled argument), with
//     the closest argument name;
//   - names a FeatureGate that the payload FeatureGate manifests do not
//     list, with the closest known gates;
//   - uses the legacy FeatureSet markers, which gatedcrd does not implement.
//
// Findings are errors that the caller marks strict: a run keeps them errors
// only when the repository opted in to strict markers (a flag, the
// configuration or a strict baseline), and reports them as warnings
// otherwise, so that a repository that configured nothing exits as with
// the reference.
package strictmarkers
