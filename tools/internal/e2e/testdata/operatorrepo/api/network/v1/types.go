package v1

// ClusterNetwork is the network of a control plane. Its one gated rule is a
// marker of the type, in another package than the CRDs that use it: the
// reference sees it from 2025-11-05 on, when it parses every group-version
// of a run together, and not before (the era this repository pins).
// +openshift:validation:FeatureGateAwareXValidation:featureGate=ClusterNetworkCIDRs,rule="!has(self.podCIDR) || !has(self.serviceCIDR) || self.podCIDR != self.serviceCIDR",message="podCIDR and serviceCIDR must differ"
type ClusterNetwork struct {
	// podCIDR is the range of the pods' addresses.
	// +optional
	PodCIDR string `json:"podCIDR,omitempty"`

	// serviceCIDR is the range of the services' addresses.
	// +optional
	ServiceCIDR string `json:"serviceCIDR,omitempty"`
}
