// Package testsuites checks that every generated CRD variant is covered by
// an API test suite, and writes starting points for the missing ones.
//
// Suites live next to the types, in <version-dir>/tests/<crdName>/<X>.yaml,
// and by convention mirror the partial manifests of stage 1: each partial
// manifest zz_generated.featuregated-crd-manifests/<crdName>/<X>.yaml must
// have a suite tests/<crdName>/<X>.yaml (extra suites such as -Gate.yaml are
// welcome). Stubs are written through the overlay tree like any other
// output, so `--verify` reports what is missing and never writes.
//
// The approval annotation rule that used to live here is enforced by
// package requiredannotations, inside crd-manifests.
package testsuites
