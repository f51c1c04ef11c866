package v1beta1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// ControlPlaneSnapshot is a point-in-time copy of a control plane's state.
// The whole type is gated: it exists only where ControlPlaneSnapshots is on,
// which is TechPreviewNoUpgrade (and CustomNoUpgrade, which has every CRD).
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=controlplanesnapshots,scope=Namespaced
// +kubebuilder:subresource:status
// +openshift:enable:FeatureGate=ControlPlaneSnapshots
type ControlPlaneSnapshot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec says what to copy.
	// +required
	Spec ControlPlaneSnapshotSpec `json:"spec"`

	// status is what the operator last observed.
	// +optional
	Status ControlPlaneSnapshotStatus `json:"status,omitempty"`
}

// ControlPlaneSnapshotSpec says what to copy.
type ControlPlaneSnapshotSpec struct {
	// controlPlaneName names the ControlPlane in the same namespace.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="controlPlaneName is immutable"
	// +required
	ControlPlaneName string `json:"controlPlaneName"`
}

// ControlPlaneSnapshotStatus is what the operator last observed.
type ControlPlaneSnapshotStatus struct {
	// completionTime is when the copy was complete.
	// +optional
	CompletionTime *metav1.Time `json:"completionTime,omitempty"`
}

// ControlPlaneSnapshotList is a list of ControlPlaneSnapshots.
//
// +kubebuilder:object:root=true
type ControlPlaneSnapshotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ControlPlaneSnapshot `json:"items"`
}
