// Package requiredannotations checks that every final CRD manifest
// (zz_generated.crd-manifests/) of the configured API groups carries the
// configured annotations, by default api-approved.openshift.io on every
// group ending in .openshift.io, as openshift/api requires. Partial manifests and manual
// overrides are not checked: only what ships matters, and an override may
// well supply the annotation.
//
// The check reads manifests through a tree.Tree, so that inside
// crd-manifests it sees the run's freshly merged output rather than what is
// on disk. A problem names the Go type at fault and the marker that adds the
// annotation, since the manifest itself is generated and must not be edited.
package requiredannotations
