// Package apitest runs this repository's example API test suites: its one
// test installs the example group's generated CRDs in a real API server
// and runs every suite against every CRD file it matches. The module's
// code is in the packages below it: server, kubeversion, suite, openapiv3
// and the apitest command.
package apitest
