// Package manifest holds what every stage needs to read and write CRD
// manifests the same way: the one YAML serialisation whose bytes the golden
// files depend on, and the annotation keys the stages use to talk to each
// other through the files they leave behind.
//
// Serialisation always goes through a generic map, marshalled byte for byte
// as sigs.k8s.io/yaml marshals it: keys sorted byte-wise, two-space
// indentation, strings that would read as another type quoted. It skips
// that library's JSON encoding and re-parse, which cost more than the YAML
// emission itself on large schemas, and falls back to the library for
// anything the shortcut cannot prove equal (see marshalGeneric). Parse
// likewise returns what sigs.k8s.io/yaml.Unmarshal returns without its
// JSON round trip (see parseGeneric). Marshalling typed Go structs directly
// would change key order and drop or add empty fields, so callers convert to
// a map first (ToMap) and marshal that.
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
