package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of every type in this package.
const GroupName = "example.openshift.io"

var (
	// GroupVersion identifies this package's API group and version; the CRD
	// generator discovers API packages by this variable.
	GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}
	// SchemeBuilder collects the functions that add this package's types.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds this package's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Resource turns an unqualified resource name into a group-qualified one.
func Resource(resource string) schema.GroupResource {
	return GroupVersion.WithResource(resource).GroupResource()
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&StableConfigType{},
		&StableConfigTypeList{},
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}
