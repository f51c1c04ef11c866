// Package manifestmerge is stage 3 of the CRD pipeline (crd-manifest-merge):
// it turns the per-gate partial manifests of stages 1 and 2 into the
// CustomResourceDefinition files a cluster installs, by the reference's
// rules (docs/reference-rules.md, "Stage 3: merge").
//
// # Inputs
//
// For every selected version directory D (once, groups whose .codegen.yaml
// disables manifestMerge excepted) each sub-directory of
// D/zz_generated.featuregated-crd-manifests/ is one CRD, named after the
// directory. Its .yaml files are the generated partial manifests; the
// .yaml files of D/manual-override-crd-manifests/<crdName>/, if present,
// are hand-written overrides. Everything is read through the run's tree,
// so files an earlier stage wrote in the same run are seen; in one process
// the manifests stage 2 processed arrive typed (Input.Files) and are
// neither read nor parsed again (manifest.Reader). Any other
// entry of a CRD directory (a sub-directory, a file not ending in .yaml)
// is an error; overrides for a CRD without a generated directory are a
// warning. A version directory without a featuregated directory is left
// alone entirely.
//
// The payload FeatureGate manifests, read by the caller with
// features/payload (the one model of a payload directory), give the tuples: every known major version, both
// cluster profiles, and every feature set of a payload file plus
// CustomNoUpgrade. A payload file names the gates enabled for its profile,
// feature set and versions; CustomNoUpgrade enables every gate in every
// version. Without a versioned payload file the stage fails.
//
// # Pertinence and order
//
// A manifest is pertinent for a tuple when every gate of its
// feature-gate.release.openshift.io/<Gate> annotations is enabled (no gate,
// or the empty gate name, means always), when it names no profile with an
// include.release.openshift.io/<profile> annotation or names the tuple's
// profile with "true", and when it has no
// release.openshift.io/major-version annotation or the tuple's version is
// in its comma-separated list. (The reference required the list to be
// exactly the tuple's version; a list of several versions never matched.)
// CustomNoUpgrade checks profiles only.
//
// The pertinent manifests are applied in a fixed order: the generated ones,
// then the overrides, each directory ordered by the number of gates a file
// names (ungated first) and then by file name. If no generated manifest is
// pertinent the tuple has no CRD, even when an override is (a warning says
// so).
//
// # The merge: a union
//
// Starting from an empty CRD annotated
// api.openshift.io/merged-by-featuregates: "true", each manifest is applied
// with Kubernetes server-side apply (sigs.k8s.io/structured-merge-diff),
// with force, as its own field manager. Under those conditions the object
// server-side apply produces is exactly the structured merge of the live
// object and the manifest, so that is what the stage computes, skipping the
// managed-fields bookkeeping it would discard (see merger; a test checks
// the equivalence against merge.Updater). The type is the upstream
// apiextensions.k8s.io/v1 CustomResourceDefinition schema that Kubernetes
// uses for server-side apply (shipped with apiextensions-apiserver's apply
// configurations), with two changes made in code: spec.versions is a map
// keyed by version name (upstream: atomic), and x-kubernetes-validations is
// atomic (upstream: keyed by rule). A test fails if upstream moves either.
// A field the schema does not know is an error naming the file.
//
// The result is the union of the pertinent manifests. A later manifest
// overwrites the scalars it sets and replaces every atomic list it sets
// (required, enum, x-kubernetes-validations, shortNames, printer columns,
// and lists inside untyped values such as default). It never removes a
// field an earlier manifest set, unless that field is inside an atomic list
// the later manifest replaces. Versions from different manifests merge by
// name, which is how an override adds, say, a scale subresource to a
// generated version.
//
// Most tuples select the same manifests: each distinct ordered set is
// merged once and its result reused for every tuple selecting it, and sets
// sharing a prefix share the merges of that prefix.
//
// # Output
//
// The merged object loses its managedFields, creationTimestamp and status,
// every annotation steering the pipeline (file-name, feature-gate, include
// and partial-filename prefixes, and the major-version and feature-set
// annotations, whose output values the stage computes itself) and every
// annotation "k" for which an override set "k-". Records of equal CRDs are
// then collapsed by version, feature set and profile, and each group gets
// one file, one per profile, one per feature set, or one per profile and
// feature set, exactly as docs/reference-rules.md ("Which files are
// written") lays out; names follow the CRD's file-name annotations. The files are written with
// pkg/manifest.Marshal into D/zz_generated.crd-manifests/ with a doc.go
// declaring package <groupDir>_<versionDir>_crdmanifests (characters not
// allowed in a Go identifier, such as '-' and '.', become '_'). Other
// files there are removed; a sub-directory there is an error. When any
// input of D has an error nothing of D is written or removed.
//
// # Eras
//
// The reference generator's rules changed over time, and a repository's
// committed files follow the rules of the reference it last ran
// (features/payload.Era; Input.Era, by default the era the payload
// directory was read in). Everything above is the current era, 2026-03.
// The differences, each in one place (era.go names them):
//
//   - 2026-02 (versioned payload, before 2026-03-18) merges
//     x-kubernetes-validations as upstream types it, a list keyed by rule:
//     a later file's rules join the earlier file's, the same rule takes
//     the later message (ruleKeyedCRDType).
//   - 2026-01 and 2025-09 (payload without major versions)
//     merge by rule too; their tuples have no version (noVersion), so a
//     manifest's major-version annotation is not checked and no output
//     names or annotates versions. Manifests apply in name order, a
//     combination file moved after the files whose names it contains by
//     the reference's less-function, through sort.SliceStable (2026-01) or
//     sort.Slice (2025-09); and the files are chosen by the three rules of
//     that era: one file, else one per feature set with a single feature-set
//     name, else per profile (decidePreVersion). The
//     release.openshift.io/feature-gate annotation is kept like any other.
//
// Run writes through the tree only: verifying is running the stage and
// letting the caller compare the tree with the disk.
package manifestmerge
