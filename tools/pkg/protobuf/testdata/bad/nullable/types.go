// Package nullable has a malformed +protobuf.nullable comment tag.
package nullable

// Names is a list of names.
// +protobuf.nullable=sometimes
type Names []string

// Holder holds names.
type Holder struct {
	// names held.
	Names Names `json:"names"`
}
