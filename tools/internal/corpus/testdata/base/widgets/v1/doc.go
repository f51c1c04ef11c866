// +corpus:placeholder=package
// +groupName=widgets.example.openshift.io
// +openshift:featuregated-schema-gen=true

// Package v1 is the base API group of the corpus of bad inputs: every case
// starts from this valid tree and breaks one thing.
package v1
