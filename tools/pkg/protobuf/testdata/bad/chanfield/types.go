// Package chanfield has a type go-to-protobuf cannot map.
package chanfield

// Pipe carries values.
type Pipe struct {
	// name of the pipe.
	Name string `json:"name"`
	// values cannot be represented in protobuf.
	Values chan int `json:"values"`
}
