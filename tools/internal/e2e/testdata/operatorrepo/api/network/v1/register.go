package v1

import "k8s.io/apimachinery/pkg/runtime/schema"

// GroupVersion identifies the API; the CRD generator finds API packages by
// this variable.
var GroupVersion = schema.GroupVersion{Group: "network.example.com", Version: "v1"}
