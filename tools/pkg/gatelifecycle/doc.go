// Package gatelifecycle renders, for every FeatureGate, what it controls in
// the generated CRDs and where it is enabled: one Markdown page per gate,
// for reviewers deciding whether a gate may be promoted (the information
// KEP-2558 puts into schemas, kept in documentation instead).
//
// It reads what the pipeline has already computed rather than the Go
// sources: stage 1's list of partial manifests per CRD, their schemas as
// stage 2 filled them (one per gate entry, as if only that entry's gates
// were on), and the payload FeatureGate manifests. What a gate controls is
// the difference between its partial manifest's schema and the ungated
// one: fields that appear, enum values it adds or drops, CEL rules it adds,
// a changed maxItems; a gate that gates a whole CRD controls the CRD. For
// a combination entry (requiredFeatureGate=A;B) only what neither gate
// brings alone counts, listed under both gates. Each change is located at
// its Go marker through a Locator (crdvalidate.Sources, which walks the
// already loaded packages).
//
// Changes are additions only: a gate's file never removes what the ungated
// file sets (the merge is a union), except by replacing an atomic list,
// which shows as dropped enum values. Output is sorted and contains no
// timestamps, so it is stable for make verify.
package gatelifecycle
