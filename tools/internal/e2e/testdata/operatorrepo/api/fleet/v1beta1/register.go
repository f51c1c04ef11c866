package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion identifies the API; the CRD generator finds API packages by
// this variable.
var GroupVersion = schema.GroupVersion{Group: "fleet.example.com", Version: "v1beta1"}

var (
	// SchemeBuilder collects the functions that add this package's types.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds this package's types to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&ControlPlane{}, &ControlPlaneList{},
		&ControlPlaneSnapshot{}, &ControlPlaneSnapshotList{},
		&PlacementPolicy{}, &PlacementPolicyList{},
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}
