// Package testsuites checks that every generated CRD variant is covered by
// an API test suite, and writes starting points for the missing ones.
//
// Suites live next to the types, in <version-dir>/tests/<crdName>/, and are
// the files apitest runs there (internal/suitefile: any .yaml file). By
// convention they mirror the partial manifests of stage 1: each partial
// manifest zz_generated.featuregated-crd-manifests/<crdName>/<X>.yaml must
// have a suite tests/<crdName>/<X>.yaml, as openshift/api names them, or
// tests/<crdName>/<X>.testsuite.yaml, as operator repositories do (extra
// suites such as -Gate.yaml are welcome). A stub takes the name most of
// the nearest suites use: those of its CRD, else of its version, else of
// the tree; <X>.yaml when there are none. Stubs are written through the
// overlay tree like any other output, so `--verify` reports what is missing
// and never writes.
//
// The approval annotation rule that used to live here is enforced by
// package requiredannotations, inside crd-manifests.
package testsuites
