// Package kubetarget decides which Kubernetes release a run targets: the
// release whose API server validates the generated CRDs and runs the API
// test suites.
//
// A flag or the repository configuration chooses it explicitly; then what
// that release finds is an error. When nothing chooses, the release is
// inferred from the go.mod that governs the base directory (the minor of
// k8s.io/apimachinery, else of k8s.io/api), else it is the release the tool
// links; what an inferred release finds is only a warning, so that a
// repository that never configured gatedcrd exits as it did with the
// reference (docs/zero-configuration.md, "The contract").
package kubetarget
