package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"@ROOT@/marker-malformed-shared/lib"
)

// Thing is a root type.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=things,scope=Cluster
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Helper lib.Helper `json:"helper"`
}

// Other is a root type reaching the same helper.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=others,scope=Cluster
type Other struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Helper *lib.Helper `json:"helper,omitempty"`
}
