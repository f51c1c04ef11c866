package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of every type in this package.
const GroupName = "widgets.example.openshift.io"

// +corpus:placeholder=register

// GroupVersion identifies this package's API group and version.
var GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
