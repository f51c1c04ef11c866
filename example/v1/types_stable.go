package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +openshift:api-approved.openshift.io=https://github.com/gatedcrd/gatedcrd/pull/1
// +openshift:file-pattern=cvoRunLevel=0000_50,operatorName=my-operator,operatorOrdering=01
// +openshift:capability=ExampleCapability
// +kubebuilder:metadata:annotations="example.openshift.io/owner=api-team"
// +kubebuilder:metadata:labels="example.openshift.io/tier=example"

// StableConfigType is a stable, cluster-scoped configuration type whose
// schema grows new fields, enum values and validation rules behind feature
// gates.
//
// Compatibility level 1: Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).
// +openshift:compatibility-gen:level=1
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=stableconfigtypes,scope=Cluster,shortName=sct;stablecfg,categories=examples
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name=Stable,type=string,JSONPath=.spec.stableField,description="The stable field's value"
// +kubebuilder:printcolumn:name=Replicas,type=integer,JSONPath=.spec.replicas,priority=1
// +kubebuilder:printcolumn:name=Age,type=date,JSONPath=.metadata.creationTimestamp
type StableConfigType struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard object's metadata.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec holds the desired configuration.
	// +required
	Spec StableConfigTypeSpec `json:"spec"`

	// status holds what the owning operator last observed.
	// +optional
	Status StableConfigTypeStatus `json:"status,omitempty"`
}

// StableConfigTypeSpec is the desired configuration of a StableConfigType.
// +openshift:validation:FeatureGateAwareXValidation:featureGate=Example,rule="has(oldSelf.coolNewField) ? has(self.coolNewField) : true",message="coolNewField cannot be removed once set"
// +openshift:validation:FeatureGateAwareXValidation:featureGate=Example,rule="!has(self.coolNewField) || !has(self.stableField) || self.coolNewField != self.stableField",message="coolNewField must differ from stableField"
// +openshift:validation:FeatureGateAwareXValidation:requiredFeatureGate=Example;Example2,rule="has(oldSelf.stableField) ? has(self.stableField) : true",message="stableField cannot be removed once set while both Example and Example2 are enabled"
type StableConfigTypeSpec struct {
	// immutableField must be set on creation and can never change.
	// +required
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="immutableField is immutable"
	ImmutableField string `json:"immutableField"`

	// optionalImmutableField may be set later, but once set it cannot change.
	// +optional
	// +kubebuilder:validation:XValidation:rule="oldSelf == '' || self == oldSelf",message="optionalImmutableField is immutable once set"
	OptionalImmutableField string `json:"optionalImmutableField,omitempty"`

	// stableField exists on every cluster.
	// When omitted, the operator picks a value that may change between releases.
	// +optional
	StableField string `json:"stableField,omitempty"`

	// coolNewField is only part of the API when the Example feature gate is
	// enabled; elsewhere the API server drops it.
	// +openshift:enable:FeatureGate=Example
	// +optional
	CoolNewField string `json:"coolNewField,omitempty"`

	// multiGateField is part of the API when either the Example2 or the
	// ExampleStable feature gate is enabled.
	// +openshift:enable:FeatureGate=Example2
	// +openshift:enable:FeatureGate=ExampleStable
	// +optional
	MultiGateField string `json:"multiGateField,omitempty"`

	// evolvingCollection is a list whose size limit depends on the feature
	// gates: one item by default, three with the Example gate.
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate="",maxItems=1
	// +openshift:validation:FeatureGateAwareMaxItems:featureGate=Example,maxItems=3
	// +listType=atomic
	// +optional
	EvolvingCollection []string `json:"evolvingCollection,omitempty"`

	// evolvingUnion is a discriminated union that gains a member behind a
	// feature gate.
	// +optional
	EvolvingUnion EvolvingUnion `json:"evolvingUnion,omitempty"`

	// nonZeroDefault shows an integer with a non-zero default and a minimum.
	// +kubebuilder:default=8
	// +kubebuilder:validation:Minimum=8
	// +default=8
	// +optional
	NonZeroDefault int32 `json:"nonZeroDefault,omitempty"`

	// replicas is the desired number of replicas, exposed through the scale
	// subresource that a manual override adds to the generated CRD.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// nested shows a gated field deep inside the spec: reached through a
	// pointer, then a list.
	// +optional
	Nested *NestedConfig `json:"nested,omitempty"`
}

// EvolvingUnion is a union whose discriminator accepts more values when the
// Example feature gate is enabled.
type EvolvingUnion struct {
	// type selects the union member.
	// +required
	Type EvolvingDiscriminator `json:"type"`
}

// EvolvingDiscriminator lists the union members.
// +openshift:validation:FeatureGateAwareEnum:featureGate="",enum="";StableValue
// +openshift:validation:FeatureGateAwareEnum:featureGate=Example,enum="";StableValue;TechPreviewOnlyValue
type EvolvingDiscriminator string

const (
	// EvolvingDiscriminatorStable selects the stable member.
	EvolvingDiscriminatorStable EvolvingDiscriminator = "StableValue"
	// EvolvingDiscriminatorTechPreview selects the member that only exists
	// with the Example gate.
	EvolvingDiscriminatorTechPreview EvolvingDiscriminator = "TechPreviewOnlyValue"
)

// NestedConfig groups named entries.
type NestedConfig struct {
	// entries are keyed by name.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	// +optional
	Entries []NestedEntry `json:"entries,omitempty"`
}

// NestedEntry is one named entry.
type NestedEntry struct {
	// name identifies the entry.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +required
	Name string `json:"name"`

	// value is the entry's value.
	// +optional
	Value string `json:"value,omitempty"`

	// detail only exists when the Example2 feature gate is enabled.
	// +openshift:enable:FeatureGate=Example2
	// +optional
	Detail string `json:"detail,omitempty"`
}

// StableConfigTypeStatus is what the owning operator observed.
type StableConfigTypeStatus struct {
	// conditions describe the state of the configuration.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// readyReplicas is the number of replicas that are ready.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// immutableField can be set by the operator once and never changed.
	// +optional
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="immutableField is immutable"
	ImmutableField string `json:"immutableField,omitempty"`
}

// StableConfigTypeList is a list of StableConfigType.
//
// Compatibility level 1: Stable within a major release for a minimum of 12 months or 3 minor releases (whichever is longer).
// +openshift:compatibility-gen:level=1
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type StableConfigTypeList struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is the standard list's metadata.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata
	metav1.ListMeta `json:"metadata"`

	// items are the StableConfigTypes.
	Items []StableConfigType `json:"items"`
}
