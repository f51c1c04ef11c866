// Package admission is the part of the Kubernetes API server that admits a
// CustomResourceDefinition, called as a library: decoding with the
// server's scheme (v1 defaulting, then conversion to the internal
// version), the registry strategy's preparation, and
// validation.ValidateCustomResourceDefinition (and ...Update), plus the
// server's CEL cost estimates for the --cel-costs report.
//
// It imports only Kubernetes libraries, and only API that every supported
// release (1.32 to the linked one) has, because it is compiled twice: into
// codegen, against the linked release, and, through Source, into the CRD
// validation program of every other release (see package crdvalidate),
// whose validate mode answers Validate requests. Both paths therefore run
// the same code, each with its own release's libraries.
package admission
