package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a root type.
// +kubebuilder:object:root=true
// +kubebuilder:resource:path=things,scope=Cluster
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Anything any            `json:"anything"`
	Bag      map[string]any `json:"bag"`
	Fixed    [4]string      `json:"fixed"`
	Pipe     chan int       `json:"pipe"`
	Callback func() error   `json:"callback"`
	Failure  error          `json:"failure"`
	Indirect Indirect       `json:"indirect"`
	Again    Stringer       `json:"again"`
	Listed   []Stringer     `json:"listed"`
}

// Indirect reaches an interface one level down.
type Indirect struct {
	Deep []Stringer `json:"deep"`
}

// Stringer is an interface.
type Stringer interface{ String() string }
