package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/1
// +openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=01

// NotStableConfigType is an unstable configuration type that only exists
// while the Example feature gate is enabled.
//
// Compatibility level 4: No compatibility is provided, the API can change at any point for any reason. These capabilities should not be used by applications needing long term support.
// +openshift:compatibility-gen:level=4
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=notstableconfigtypes,scope=Cluster
// +kubebuilder:subresource:status
// +openshift:enable:FeatureGate=Example
type NotStableConfigType struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object's metadata.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec holds the desired configuration.
	// +required
	Spec NotStableConfigTypeSpec `json:"spec"`

	// status holds what the owning operator last observed.
	// +optional
	Status NotStableConfigTypeStatus `json:"status,omitempty"`
}

// NotStableConfigTypeSpec is the desired configuration.
type NotStableConfigTypeSpec struct {
	// newField needs no gate marker of its own: the whole type is gated.
	// +required
	NewField string `json:"newField"`
}

// NotStableConfigTypeStatus is what the owning operator observed.
type NotStableConfigTypeStatus struct {
	// conditions describe the state of the configuration.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// NotStableConfigTypeList is a list of NotStableConfigType.
//
// Compatibility level 4: No compatibility is provided, the API can change at any point for any reason. These capabilities should not be used by applications needing long term support.
// +openshift:compatibility-gen:level=4
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type NotStableConfigTypeList struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard list's metadata.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
	metav1.ListMeta `json:"metadata"`

	// items are the NotStableConfigTypes.
	Items []NotStableConfigType `json:"items"`
}
