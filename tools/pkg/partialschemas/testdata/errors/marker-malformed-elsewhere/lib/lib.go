// Package lib has a malformed marker.
package lib

// Helper is used by an API type.
type Helper struct {
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=A,maxItems=many
	List []string `json:"list"`
}
