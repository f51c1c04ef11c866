package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/7
// +openshift:file-pattern=cvoRunLevel=0000_10,operatorName=widgets,operatorOrdering=01
// +openshift:capability=Widgets
// +corpus:placeholder=root-detached

// Widget is a cluster-scoped widget.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=widgets,scope=Cluster
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name=Color,type=string,JSONPath=.spec.color
// +corpus:placeholder=root
type Widget struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the desired state of the widget.
	// +required
	Spec WidgetSpec `json:"spec"`

	// status is the observed state of the widget.
	// +optional
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
// +openshift:validation:FeatureGateAwareXValidation:featureGate=WidgetLimits,rule="!has(self.limit) || self.limit >= self.size",message="limit must not be below size"
// +corpus:placeholder=spec-type
type WidgetSpec struct {
	// name names the widget.
	// +corpus:placeholder=field-string
	// +kubebuilder:validation:MinLength=1
	// +required
	Name string `json:"name"`

	// color is the colour of the widget.
	// +corpus:placeholder=field-enum
	// +optional
	Color Color `json:"color,omitempty"`

	// tags label the widget.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=4
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=WidgetLimits,maxItems=16
	// +corpus:placeholder=field-slice
	// +listType=atomic
	// +optional
	Tags []string `json:"tags,omitempty"`

	// size is the size of the widget.
	// +corpus:placeholder=field-int
	// +kubebuilder:validation:Minimum=0
	// +optional
	Size int32 `json:"size,omitempty"`

	// limit caps the size; it only exists with the WidgetLimits gate.
	// +openshift:enable:FeatureGate=WidgetLimits
	// +optional
	Limit int32 `json:"limit,omitempty"`

	// +corpus:placeholder=spec-fields
}

// Color is the colour of a widget.
// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum=Red;Green
// +openshift:validation:FeatureGateAwareEnum:featureGate=WidgetColors,enum=Red;Green;Blue
// +corpus:placeholder=enum-type
type Color string

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	// ready says whether the widget is ready.
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard list metadata.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty"`

	// items are the widgets.
	Items []Widget `json:"items"`
}

// +corpus:placeholder=decls
