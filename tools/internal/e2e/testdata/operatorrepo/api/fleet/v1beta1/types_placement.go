package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// PlacementPolicy limits how control planes share nodes. It mentions no
// gate, so one manifest serves every profile and feature set.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=placementpolicies,scope=Cluster
type PlacementPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the policy.
	// +required
	Spec PlacementPolicySpec `json:"spec"`
}

// PlacementPolicySpec is the policy.
type PlacementPolicySpec struct {
	// maxControlPlanesPerNode caps the control planes on one node.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=2
	// +optional
	MaxControlPlanesPerNode int32 `json:"maxControlPlanesPerNode,omitempty"`
}

// PlacementPolicyList is a list of PlacementPolicies.
//
// +kubebuilder:object:root=true
type PlacementPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PlacementPolicy `json:"items"`
}
