package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Cluster
// +kubebuilder:subresource:status
// +openshift:api-approved.openshift.io=https://example.com/pull/1
// +openshift:compatibility-gen:level=1

// Widget is a cluster-wide widget.
//
// Compatibility level 1: Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard object's metadata.
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// spec holds the widget's desired state.
	// +required
	Spec WidgetSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
	// status holds the widget's observed state.
	// +optional
	Status WidgetStatus `json:"status" protobuf:"bytes,3,opt,name=status"`
}

// WidgetSpec is the desired state of a widget.
type WidgetSpec struct {
	// diameter is the widget's diameter in centimetres.
	// +kubebuilder:validation:Minimum=1
	// +required
	Diameter int32 `json:"diameter" protobuf:"varint,1,opt,name=diameter"`
	// labels are the widget's labels.
	// +optional
	// +listType=set
	Labels []string `json:"labels,omitempty" protobuf:"bytes,2,rep,name=labels"`
}

// WidgetStatus is the observed state of a widget.
type WidgetStatus struct {
	// conditions describe the widget's state.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,1,rep,name=conditions"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +openshift:compatibility-gen:level=1

// WidgetList is a list of widgets.
//
// Compatibility level 1: Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	// metadata is the standard list's metadata.
	metav1.ListMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`

	// items are the widgets.
	Items []Widget `json:"items" protobuf:"bytes,2,rep,name=items"`
}
