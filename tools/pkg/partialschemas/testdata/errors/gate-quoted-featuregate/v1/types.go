package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a root type.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=things,scope=Cluster
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +openshift:validation:FeatureGateAwareEnum:featureGate="Foo",enum=a;b
	Letter string `json:"letter"`

	// +openshift:validation:FeatureGateAwareMaxItems:featureGate="";`Bar`,maxItems=1
	List []string `json:"list"`

	// +openshift:validation:FeatureGateAwareMaxItems:requiredFeatureGate=A;"B",maxItems=1
	Other []string `json:"other"`
}
