// +k8s:deepcopy-gen=package,register
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=com.example.api.widgets.v1
// +groupName=widgets.example.com

// Package v1 is the fixture's API group-version.
package v1
