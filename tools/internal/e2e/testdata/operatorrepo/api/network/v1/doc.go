// +groupName=network.example.com

// Package v1 is a group-version without CRDs of its own: the fleet API's
// ControlPlane embeds its ClusterNetwork.
package v1
