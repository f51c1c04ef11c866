// Package openapiv3 holds the test that proves `codegen openapi-v3`: the
// OpenAPI v3 documents it writes offline for a variant equal those a real
// apiextensions-apiserver serves with that variant's CRDs installed. It
// runs in its own test process, so that its server holds exactly those
// CRDs. It runs codegen through `go run`, which keeps this module free of
// a dependency on the tools module.
package openapiv3
