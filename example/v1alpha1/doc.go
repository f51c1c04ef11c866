// +kubebuilder:object:generate=true
// +groupName=example.openshift.io
// +openshift:featuregated-schema-gen=true

// Package v1alpha1 is the unstable version of the example API group. Its one
// type, NotStableConfigType, exists only on clusters where the Example
// feature gate is enabled.
package v1alpha1
