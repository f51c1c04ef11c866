// Package partialschemas is stage 1 of the CRD pipeline
// (`empty-partial-schemas`): it finds the CRD root types of each
// API version package, works out which FeatureGates can change each CRD,
// and records one partial manifest per gate entry, without schema, for
// stage 2 to complete. docs/reference-rules.md ("Stage 1: partial
// manifests") states the reference's rules it follows.
//
// # Packages and root types
//
// A version package is processed when its doc.go carries
// +openshift:featuregated-schema-gen=true or when one of its types carries
// +kubebuilder:object:root=true; groups whose .codegen.yaml sets
// emptyPartialSchema.disabled are skipped. A processed package needs
// +groupName in doc.go. Each root type becomes a CRD named
// <plural>.<group>, whose version is the last element of the package path.
//
// # Which comments hold a node's markers
//
// Markers are read through the run's one controller-tools Collector, so
// stage 1 and stage 2 see exactly the same markers: a type or field gets
// the markers of its godoc block plus those of the closest other comment
// block above it (after the previous declaration or field, and not that
// one's end-of-line comment), however many blank lines separate the two.
// This is more liberal than the reference, which only took a second block
// separated by exactly one blank line. Collector values carry no position,
// so the package pairs them with the marker lines package markerpos
// associates by the same rule, once per run for every stage
// (goload.Universe.MarkerLines; the tests check that both agree); the
// lines give diagnostics their
// file:line and show how a gate name was spelled, which a parsed value
// cannot (featureGate="Foo" and featureGate=Foo parse alike, and quoted
// names are rejected).
//
// # Gate discovery
//
// The type walk starts at the root type and follows struct fields,
// pointers, slices and maps into every named type once (a visited set makes
// recursive types finish), across package boundaries through the shared
// universe, so a version's output does not depend on --api-group-versions.
// A pointer to a named non-struct type (*MyEnum) visits MyEnum's markers.
// Basic types and runtime.Object end the walk; other interfaces, arrays,
// channels and functions are errors naming the field. Fields without a json
// tag, or tagged json:"-", are not part of the schema and are not walked
// (this also keeps the walk out of the internals of types such as
// metav1.Time, whose untagged fields the loader does not type-check).
//
// Each +openshift:enable:FeatureGate value, each featureGate name of a
// FeatureGateAware marker (except the ungated "") and each
// requiredFeatureGate list (names joined with "+" in written order) is a
// gate entry. The CRD's entries are de-duplicated and sorted byte-wise; the
// root type's own +openshift:enable:FeatureGate values are its top-level
// gates. The CRD gets AAA_ungated.yaml unless it has top-level gates, and
// <entry>.yaml per entry, each carrying the annotation
// feature-gate.release.openshift.io/<gate>: "true" for every gate of its
// entry (the bare prefix for the ungated file). Entries equal up to order (A+B, B+A) and entries of a
// type-gated CRD that do not carry a top-level gate are warned about.
//
// # Writing
//
// Stage 1 never touches the disk: it reads and writes through a tree.Tree,
// and the caller commits or verifies it. An existing, non-empty partial
// manifest is compared with the expected one after removing the schema of
// its single version, with Kubernetes semantic equality on the typed CRD;
// when it matches it is not written at all, which keeps stage 2's schema.
// Otherwise the file gets the expected content without schema. The
// existing partial manifests are read and parsed on every core while the
// type walk runs (from the start of the package load on, when the caller
// starts the reading: StartPrefetch), since parsing their schemas is most
// of the stage's work on a generated tree. Other files
// in a CRD directory are removed; a sub-directory there is an error. CRD
// directories that no root type produces any more are removed when they
// hold only .yaml files and reported otherwise. The summary file lists every
// root type of the package; it is empty for a processed package without
// root types.
//
// The stage reads before it writes: first every version package (its
// checks, its index, its root types), then every CRD (markers, type walk,
// and for a CRD it writes, the comparison of each partial manifest with
// the existing file), each on every core; then, one version after the
// other in discovery order, it writes. Each CRD reports to a list of its
// own, added to the run's in root type order, so the problems and files
// are those of a reading on one core. A package's index is built once,
// by the first CRD that needs it, while the others wait.
//
// A CRD with an error gets no writes; a version with an error gets no
// summary and no stale-directory cleanup. Every problem goes to the run's
// diag.List with file, line, marker and what is wrong; Run itself only
// fails when its input is incomplete.
//
// # Result
//
// Run returns, per processed version, the CRDs found (name, kind, plural,
// scope, sorted gate entries, top-level gates) and their partial manifests
// (path, gate names, whether the file was written or left alone), plus the
// versions it skipped and why. The progress report prints it. Each partial
// manifest also carries its bytes and its object, exactly as
// manifest.Parse returns it for those bytes: what stage 1 wrote (the JSON
// round trip of the typed CRD it marshalled), or the existing file it left
// alone (parsed once for the comparison, schema kept). Stage 2 takes them
// (Result.Manifests) instead of reading and parsing the files again.
//
// # Choices where the specification leaves room
//
//   - Markers parse with controller-tools' grammar, not the reference's
//     splitter: list values use ';' (or {a,b}), so categories=a;b gives two
//     categories (the summary's Category joins them with ';', which is the
//     raw value for the usual single category); an invalid printcolumn
//     priority or "+openshift:enable:FeatureGate=A,B" is an error instead
//     of 0 or two gates.
//   - +openshift:featuregated-schema-gen accepts only true.
//   - Scope must be Cluster or Namespaced; the plural must be a lower-case
//     DNS label and the group a DNS subdomain (both become path elements).
//   - Gate names must match [A-Za-z0-9][A-Za-z0-9_.-]*: they become file
//     names and annotation keys, and '+' separates the gates of an entry.
//   - Top-level gates are sorted like the gate list.
//   - A +kubebuilder:metadata annotation may not use the
//     feature-gate.release.openshift.io/ prefix, and one that overrides a
//     derived annotation with another value is warned about.
//   - Loose files directly in zz_generated.featuregated-crd-manifests/ are
//     warned about and left alone; an emptied manifests directory is left
//     in place.
package partialschemas
