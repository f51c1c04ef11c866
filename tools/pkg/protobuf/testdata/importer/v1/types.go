// Package v1 imports another API package that is generated in the same
// call, which makes Generate load it on its own, as the reference would.
package v1

import (
	fixturev1 "github.com/gatedcrd/gatedcrd/tools/pkg/protobuf/testdata/fixture/v1"
)

// DefaultColor is taken from the other package.
const DefaultColor = string(fixturev1.Color("blue"))

// Gadget is a small device.
type Gadget struct {
	// name of the gadget.
	Name string `json:"name"`

	// color of the gadget.
	Color string `json:"color,omitempty"`
}
