// +k8s:deepcopy-gen=package,register
// +k8s:openapi-gen=true
// +groupName=widgets.example.com

// Package v1 is the fixture's API group-version.
package v1
