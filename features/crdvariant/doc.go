// Package crdvariant reads and writes the annotations by which a generated
// CRD manifest (a file of a zz_generated.crd-manifests directory) says for
// which variants, [featuregate.Tuple] values, it is the CRD.
//
// The merge writes them ([Annotations.Write]); compat, openapi-v3,
// crdvalidate and apitest read them ([Decode], [Annotations.Covers]). Sharing
// one decoder keeps every reader's idea of a file's variants the merge's.
//
// A file names its variants dimension by dimension, and a missing
// annotation leaves its dimension open:
//
//   - include.release.openshift.io/<profile>: "true" for each ClusterProfile
//     (see [featuregate.ClusterProfileName.AnnotationKey]); without any such
//     key, every profile;
//   - release.openshift.io/major-version: the comma-separated major versions;
//   - release.openshift.io/feature-set: the comma-separated feature sets;
//   - release.openshift.io/feature-gate: the comma-separated gates a
//     hand-written CRD needs. It only counts when the file has no
//     feature-set annotation: the file is then the CRD of the tuples where
//     every one of those gates is on, and of every CustomNoUpgrade tuple.
package crdvariant
