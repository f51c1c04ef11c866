package featuregate

// FeatureGateName is the name of a FeatureGate, e.g. "Example". It is used
// verbatim in manifests and file names, so it is case sensitive.
type FeatureGateName string

// ClusterProfileName is the short name of a ClusterProfile, as used in file
// names and tables ("Hypershift", "SelfManagedHA"). Manifests do not carry the
// short name: they carry an annotation whose key identifies the profile, see
// [ClusterProfileName.AnnotationKey].
type ClusterProfileName string

const (
	// Hypershift is the profile of clusters whose control plane is hosted
	// elsewhere.
	Hypershift ClusterProfileName = "Hypershift"
	// SelfManagedHA is the profile of self-managed, highly available
	// clusters.
	SelfManagedHA ClusterProfileName = "SelfManagedHA"
	// SingleNode is recognised only so that test matchers can read its
	// annotation key. It is not a rendered profile: registries reject rules
	// naming it and payload readers reject files carrying it.
	SingleNode ClusterProfileName = "SingleNode"
)

// Annotation keys that identify a profile in a manifest.
const (
	HypershiftAnnotationKey    = "include.release.openshift.io/ibm-cloud-managed"
	SelfManagedHAAnnotationKey = "include.release.openshift.io/self-managed-high-availability"
	SingleNodeAnnotationKey    = "include.release.openshift.io/single-node-developer"
)

// AnnotationKey returns the annotation key that identifies p in manifests, or
// "" if p is not a known profile.
func (p ClusterProfileName) AnnotationKey() string {
	switch p {
	case Hypershift:
		return HypershiftAnnotationKey
	case SelfManagedHA:
		return SelfManagedHAAnnotationKey
	case SingleNode:
		return SingleNodeAnnotationKey
	}
	return ""
}

// IsRendered reports whether p is one of the profiles for which FeatureGate
// manifests and CRDs are rendered (see [ClusterProfiles]).
func (p ClusterProfileName) IsRendered() bool {
	return p == Hypershift || p == SelfManagedHA
}

// ClusterProfileForAnnotationKey maps an annotation key back to its profile.
// It recognises all three known keys, including SingleNode's; callers that
// render or merge must additionally check [ClusterProfileName.IsRendered].
func ClusterProfileForAnnotationKey(key string) (ClusterProfileName, bool) {
	for _, p := range []ClusterProfileName{Hypershift, SelfManagedHA, SingleNode} {
		if p.AnnotationKey() == key {
			return p, true
		}
	}
	return "", false
}

// ClusterProfiles returns the rendered profiles in ascending order. A new
// slice is returned on each call.
func ClusterProfiles() []ClusterProfileName {
	return []ClusterProfileName{Hypershift, SelfManagedHA}
}

// FeatureSetName is the name of a FeatureSet. The default feature set is
// spelled "Default" everywhere except in the spec.featureSet field of the
// FeatureGate API object, where it is the empty string; use
// [FeatureSetName.SpecValue] and [FeatureSetFromSpec] to convert.
type FeatureSetName string

const (
	Default              FeatureSetName = "Default"
	TechPreviewNoUpgrade FeatureSetName = "TechPreviewNoUpgrade"
	DevPreviewNoUpgrade  FeatureSetName = "DevPreviewNoUpgrade"
	CustomNoUpgrade      FeatureSetName = "CustomNoUpgrade"
	OKD                  FeatureSetName = "OKD"
)

// IsFixed reports whether the registry alone decides which gates fs turns on.
// Every known feature set except CustomNoUpgrade is fixed.
func (fs FeatureSetName) IsFixed() bool {
	switch fs {
	case Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade, OKD:
		return true
	}
	return false
}

// IsKnown reports whether fs is one of the five known feature sets.
func (fs FeatureSetName) IsKnown() bool {
	return fs.IsFixed() || fs == CustomNoUpgrade
}

// SpecValue returns fs as written in spec.featureSet of a FeatureGate object:
// "" for Default, the name itself otherwise.
func (fs FeatureSetName) SpecValue() string {
	if fs == Default {
		return ""
	}
	return string(fs)
}

// FeatureSetFromSpec is the inverse of [FeatureSetName.SpecValue]: "" means
// Default. It does not check that the result is known.
func FeatureSetFromSpec(value string) FeatureSetName {
	if value == "" {
		return Default
	}
	return FeatureSetName(value)
}

// FixedFeatureSets returns the fixed feature sets in ascending byte order
// (Default, DevPreviewNoUpgrade, OKD, TechPreviewNoUpgrade). A new slice is
// returned on each call.
func FixedFeatureSets() []FeatureSetName {
	return []FeatureSetName{Default, DevPreviewNoUpgrade, OKD, TechPreviewNoUpgrade}
}

// ProductScope says whether a gate belongs to the OpenShift product or mirrors
// an upstream Kubernetes gate. It is metadata only.
type ProductScope string

const (
	ProductScopeOCP        ProductScope = "OCP"
	ProductScopeKubernetes ProductScope = "Kubernetes"
)
