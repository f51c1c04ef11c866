// Package v1 lacks +groupName.
// +openshift:featuregated-schema-gen=true
package v1
