// Package lib has a malformed marker, in a type two CRDs reach.
package lib

// Helper is used by both root types.
type Helper struct {
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=A,maxItems=many
	List []string `json:"list"`
}
