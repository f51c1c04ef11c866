// Package kubeprogram builds small programs against the Kubernetes
// libraries of a chosen minor version, 1.30 to 1.37, although one Go build
// can link only one version of k8s.io/apiextensions-apiserver.
//
// Three programs use it: the API test suites' server
// (github.com/gatedcrd/gatedcrd/apitest/kubeversion) and the CRD
// validation of codegen at a non-linked version
// (github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate) are built by
// Build; the openapi-gen program of a kube-openapi release that the tools
// module does not link (github.com/gatedcrd/gatedcrd/tools/pkg/openapiera)
// pins no Kubernetes version and keeps its own entries in the cache, built
// with Build's steps: Toolchain and Hash name the entry, Built finds it,
// LockFile serialises builds, BuildModule builds one and RunGo runs the go
// command. The apitest and tools modules both import this package, which
// needs nothing but the standard library, so neither depends on the other.
//
// A program's source is a module of its own: a go.mod from GoMod, which
// pins the version's k8s.io/apiextensions-apiserver and the etcd server
// release its k8s.io/apiserver requires (see Versions), a main package and
// copies of the packages it runs. Every program of a version pins the same
// requirements, so the go command selects the same module versions for
// all of them and their Kubernetes packages come out of the go build cache
// once one of them is compiled.
//
// Build resolves the module through the module proxy, like any Go build,
// compiles it once and keeps it in a cache directory, $GATEDCRD_CACHE or
// else gatedcrd below the user's cache directory:
// <cache>/<name>/<minor>-<hash>/<name>, where the hash covers the module's
// files and the toolchain. Nothing is downloaded but Go modules. Builds
// are serialised by a lock file per program name.
package kubeprogram
