package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a root type.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=things,scope=Cluster
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +openshift:validation:FeatureGateAwareMaxItems:maxItems=3
	List []string `json:"list"`

	// +openshift:validation:FeatureGateAwareXValidation:rule="self.a == self.b",message="a, b"
	Pair Pair `json:"pair"`
}

// Pair is a pair.
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
}
