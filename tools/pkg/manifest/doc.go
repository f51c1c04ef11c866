// Package manifest holds what every stage needs to read and write CRD
// manifests the same way: the one YAML serialisation whose bytes the golden
// files depend on, and the annotation keys the stages use to talk to each
// other through the files they leave behind.
//
// Serialisation always goes through a generic map marshalled with
// sigs.k8s.io/yaml: keys sorted byte-wise, two-space indentation, strings that
// would read as another type quoted. Marshalling typed Go structs directly
// would change key order and drop or add empty fields, so callers convert to
// a map first (ToMap) and marshal that.
package manifest
