package featuregate

import (
	"cmp"
	"fmt"
)

// Tuple is one point of the (major version, ClusterProfile, FeatureSet)
// space: a variant of the cluster, for which the gates that are on, and so
// the CRDs installed, are fixed. It is the only type for that combination;
// the merge, compat, openapi-v3, crdvalidate and apitest all use it.
type Tuple struct {
	Version        int
	ClusterProfile ClusterProfileName
	FeatureSet     FeatureSetName
}

// String is the canonical spelling of a tuple in messages and on the
// command line, profile first: "SelfManagedHA/Default/5". A tuple of a
// pre-version payload directory has version 0 and is printed with it.
func (t Tuple) String() string {
	return fmt.Sprintf("%s/%s/%d", t.ClusterProfile, t.FeatureSet, t.Version)
}

// Compare orders tuples by version, then profile, then feature set: the
// order of [Registry.AllFeatureSets] and of the merge's tuples.
func (t Tuple) Compare(u Tuple) int {
	return cmp.Or(
		cmp.Compare(t.Version, u.Version),
		cmp.Compare(t.ClusterProfile, u.ClusterProfile),
		cmp.Compare(t.FeatureSet, u.FeatureSet))
}

// Custom reports whether t is a CustomNoUpgrade tuple, where the
// administrator picks the gates: every gate may be on.
func (t Tuple) Custom() bool { return t.FeatureSet == CustomNoUpgrade }
