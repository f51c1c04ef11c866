// The fleet operator's tools module: it pins the reference CRD generator
// its Makefile builds, as operator repositories do. The pin's date (a
// reference of September 2025) is the era codegen follows in this
// repository without configuration.
module example.com/operator/hack/tools

go 1.24.0

require github.com/openshift/api/tools v0.0.0-20250915151906-94481d71bb6f
