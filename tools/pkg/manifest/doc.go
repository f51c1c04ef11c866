// Package manifest holds what every stage needs to read and write CRD
// manifests the same way: the one YAML serialisation whose bytes the golden
// files depend on, and the annotation keys the stages use to talk to each
// other through the files they leave behind.
//
// Serialisation always goes through a generic map, marshalled byte for byte
// as sigs.k8s.io/yaml marshals it: keys in its emitter's order (byte order
// for keys of ASCII letters), two-space indentation, strings that would
// read as another type quoted. That order is not always one order: for
// some keys with digits ("9B", "11", "911") the library's result depends
// on Go's random map iteration. Marshal then fixes one of the library's
// own results, so its bytes are the same on every run (see keyorder.go);
// wherever the library's order does not depend on the run, they are the
// library's bytes. No CRD of openshift/api has such keys. It skips
// that library's JSON encoding and re-parse, which cost more than the YAML
// emission itself on large schemas, and falls back to the library for
// anything the shortcut cannot prove equal (see marshalGeneric). Parse
// likewise returns what sigs.k8s.io/yaml.Unmarshal returns without its
// JSON round trip (see parseGeneric). Marshalling typed Go structs directly
// would change key order and drop or add empty fields, so callers convert to
// a map first (ToMap) and marshal that. A Subtrees marshals to the same
// bytes, keeping the text of each large mapping it emitted by content and
// column, so that the many manifests of one CRD, and the cycles of codegen
// watch, emit only the mappings that differ (see subtrees.go).
//
// A File is a manifest as one stage hands it to the next in one process:
// path, bytes and the object Parse returns for them. Because ToMap is a
// JSON round trip, as Parse is after its YAML-to-JSON step, an object
// built in memory and converted with ToMap is indistinguishable from its
// marshalled bytes parsed again (numbers are float64 either way), which is
// what lets a stage hand its objects on without changing a byte of
// output. A Reader gives a stage its input files: the handed-over ones as
// they are, any other read and parsed.
package manifest
