// +kubebuilder:object:generate=true
// +groupName=fleet.example.com
// +openshift:featuregated-schema-gen=true

// Package v1beta1 is the fleet operator's API: the shape of an operator
// repository's API module, which runs the CRD generator on its own group.
package v1beta1
