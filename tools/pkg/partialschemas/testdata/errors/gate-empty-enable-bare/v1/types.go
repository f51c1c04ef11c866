package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a root type.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=things,scope=Cluster
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +openshift:enable:FeatureGate=
	Value string `json:"value"`
}
