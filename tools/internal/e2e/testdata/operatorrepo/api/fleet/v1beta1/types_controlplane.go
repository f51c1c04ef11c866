package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	networkv1 "example.com/operator/api/network/v1"
)

// ControlPlane is a control plane the operator runs for a guest cluster.
// Its Default feature set differs between the two cluster profiles (the
// ExternalDNSProvider gate), so its manifests are split per profile and
// feature set.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=controlplanes,shortName=cp;cps,scope=Namespaced
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Release",type="string",JSONPath=".spec.release",description="Release image"
// +kubebuilder:printcolumn:name="Available",type="string",JSONPath=".status.conditions[?(@.type==\"Available\")].status"
type ControlPlane struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired control plane.
	// +required
	Spec ControlPlaneSpec `json:"spec"`

	// status is what the operator last observed.
	// +optional
	Status ControlPlaneStatus `json:"status,omitempty"`
}

// ControlPlaneSpec is the desired control plane.
//
// The plain rule and the gated rule sit on the same node on purpose: in the
// pre-version era rules merge by their text, so the gated rule survives the
// later ExternalDNSProvider file, which carries only the plain one.
//
// +kubebuilder:validation:XValidation:rule="has(self.zones) || self.platform.type != 'Azure'",message="an Azure control plane names its zones"
// +openshift:validation:FeatureGateAwareXValidation:featureGate=BareMetalPlatform,rule="self.platform.type != 'BareMetal' || (has(self.zones) && size(self.zones) == 1)",message="a BareMetal control plane runs in exactly one zone"
type ControlPlaneSpec struct {
	// release is the release image the control plane runs.
	// The line below is a marker no generator defines; real repositories
	// carry such lines, and without configuration they are only warned about.
	// +kubebuilder:example: "quay.io/example/release:1.0"
	// +kubebuilder:validation:MinLength=1
	// +required
	Release string `json:"release"`

	// zones are the availability zones of the control plane.
	// The first list marker below is not kubebuilder's (that is +listType);
	// it is only warned about.
	// +kubebuilder:validation:ListType=atomic
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=3
	// +optional
	Zones []string `json:"zones,omitempty"`

	// platform is where the control plane's machines run.
	// +required
	Platform PlatformSpec `json:"platform"`

	// dns configures the control plane's DNS records.
	// +openshift:enable:FeatureGate=ExternalDNSProvider
	// +optional
	DNS *DNSSpec `json:"dns,omitempty"`

	// network configures the control plane's addresses.
	// +optional
	Network networkv1.ClusterNetwork `json:"network,omitempty"`
}

// PlatformType names an infrastructure platform.
type PlatformType string

// PlatformSpec is where the control plane's machines run.
type PlatformSpec struct {
	// type is the platform; BareMetal exists with the BareMetalPlatform gate.
	// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=AWS;Azure
	// +openshift:validation:FeatureGateAwareEnum:featureGate=BareMetalPlatform,enum=AWS;Azure;BareMetal
	// +required
	Type PlatformType `json:"type"`
}

// DNSSpec configures DNS records.
type DNSSpec struct {
	// provider manages the records.
	// +kubebuilder:validation:Enum=Route53;AzureDNS
	// +kubebuilder:default=Route53
	// +optional
	Provider string `json:"provider,omitempty"`
}

// ControlPlaneStatus is what the operator last observed.
type ControlPlaneStatus struct {
	// conditions describe the control plane's state.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// ControlPlaneList is a list of ControlPlanes.
//
// +kubebuilder:object:root=true
type ControlPlaneList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ControlPlane `json:"items"`
}
