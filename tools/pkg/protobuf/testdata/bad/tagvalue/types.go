// Package tagvalue has a malformed +protobuf comment tag.
package tagvalue

// Thing is undecided about protobuf.
// +protobuf=maybe
type Thing struct {
	// name of the thing.
	Name string `json:"name"`
}
