// Package compat is `codegen compat`: a breaking-change check of the
// generated CRDs against an earlier tree that understands FeatureGates.
//
// # Tuples, not files
//
// Stage 3 writes as few files as describe every (major version,
// ClusterProfile, FeatureSet) tuple, so promoting a gate merges, splits and
// renames files. compat therefore never pairs files. It reads each tree's
// payload FeatureGate manifests (features/payload) to get its tuples
// (manifestmerge.Tuples), assigns every zz_generated.crd-manifests file to
// the tuples its annotations cover (features/crdvariant), and
// compares, per CRD name and per tuple present in both trees, the CRD the
// old tree installs there with the one the new tree installs. Tuples that
// share the same pair of files are compared once.
//
// # Checks
//
// The comparison is sigs.k8s.io/crdify's runner with its registry
// (removed fields, enum values, types, required fields, minimum, maximum,
// lengths, items and properties limits, defaults, scope, stored versions,
// served-version pairs). The registry is wrapped, never modified, to add
// one check crdify lacks: x-kubernetes-validations rules added to an
// existing field, an error when stored objects could start failing and a
// warning for transition rules. Description edits are ignored; changes no
// check handles (a pattern, a format) are warnings. The old CRD's storage
// version is taken as stored, so removing it is reported.
//
// # Gate changes
//
// When a gate the CRD depends on (a gate file of its
// zz_generated.featuregated-crd-manifests directory) is enabled in a tuple
// in one payload and not in the other, the difference is split in two
// steps through a CRD one tree has elsewhere: the new tree's CRD of a tuple
// whose gates are set as the old payload set them in this tuple (new
// types, old gates), or else the old tree's CRD of a tuple with the new
// gate states (old types, new gates). The step that changes the types is
// checked as above; the step that changes the gates is reported as a gate
// change (fields added or removed, other check messages) and is never
// breaking. When neither tree has such a tuple the findings are reported
// with a note naming the gates, unless the same finding was also made
// where no gate changed.
//
// A removed field is reported as deleted from the types when no tuple of
// the new tree has it, and as missing behind a FeatureGate otherwise.
//
// # Accepted findings
//
// A group's .codegen.yaml lists accepted findings under compat.accepted
// (crd, check, path, reason); they are reported as accepted and do not
// fail the run. Entries that match nothing are reported as stale. The new
// tree's configuration counts.
package compat
