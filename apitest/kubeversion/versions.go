package kubeversion

import "github.com/gatedcrd/gatedcrd/internal/kubeprogram"

// Version is one Kubernetes minor the API test suites can run on, and the
// Go modules its server program is built from (the table is shared with
// codegen's CRD validation: kubeprogram.Versions).
type Version = kubeprogram.Version

// Linked is the minor of the Kubernetes libraries this module links: its
// server runs inside the process (package server), without a program.
const Linked = kubeprogram.Linked

// Versions returns every supported version, oldest first.
func Versions() []Version { return kubeprogram.Versions() }

// Lookup returns the version of a minor written "1.32" (a leading "v" and
// a patch number, "v1.32.1", are accepted and ignored: the patch release
// is fixed per minor).
func Lookup(minor string) (Version, error) { return kubeprogram.Lookup(minor) }
