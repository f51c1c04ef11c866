// +kubebuilder:object:generate=true
// +groupName=example.openshift.io
// +openshift:featuregated-schema-gen=true

// Package v1 is the stable version of the example API group. It shows every
// FeatureGate-aware marker gatedcrd understands on one cluster-scoped type,
// StableConfigType, so that its generated manifests double as documentation.
package v1
