// Package schemacheck is the comparison of `codegen schemacheck`: the
// twelve comparators of openshift/crd-schema-checker, by their names, as a
// compat.Comparer that judges the CRD one (major version, ClusterProfile,
// FeatureSet) tuple installs at the git base against the one it installs
// now.
//
// The comparators are written from crd-schema-checker's documented
// purpose and from the verdicts the reference (openshift/api's codegen,
// which vendors it) gives on hand-made and real pairs, never from its
// sources. Where sigs.k8s.io/crdify has the check, crdify makes it:
//
//	NoFieldRemoval        crdify existingFieldRemoval
//	NoNewRequiredFields   crdify required (a field newly required in an
//	                      object that existed; a new optional parent may
//	                      have required children)
//	NoEnumRemoval         crdify enum, additions allowed
//	NoDataTypeChange      crdify type
//
// The others judge the fields that are new in the tuple (absent at the same
// version and path of the old CRD, every field of a CRD the tuple did not
// install): ListsMustHaveSSATags (a list without x-kubernetes-list-type),
// ConditionsMustHaveProperSSATags (a conditions list that is not a map
// keyed by type of metav1.Condition's fields), NoBools, NoFloats, NoUints
// (an integer of format uint), NoMaps (additionalProperties without
// properties), and MustNotExceedCostBudget (a new or changed CEL rule, or
// a version's total, over the API server's static budgets, estimated by
// the server's own code). MustHaveStatus judges versions: one whose schema
// has status must have the status subresource, unless it already lacked
// it with status in its schema at the base. Controller-tools writes no
// uint format and sets the subresource from a marker, so on generated
// CRDs these two rarely fire; crd-schema-checker's published examples of
// them (its testdata's expected verdicts) are the cases of the tests.
//
// The reference enables every comparator but NoBools, NoFloats, NoUints,
// NoMaps, ConditionsMustHaveProperSSATags and NoDataTypeChange; enabled
// names are added to that set, disabled ones taken out.
package schemacheck
