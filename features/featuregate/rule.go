package featuregate

import (
	"fmt"
	"slices"
)

// EnablementRule is one call to [FeatureGateBuilder.Enable]. All three sets
// are sorted and free of duplicates.
//
// It is a predicate rather than a [TupleSet]: an empty version or profile
// list means every value, including versions no list names, so the tuples
// it matches cannot be listed in advance.
type EnablementRule struct {
	// Versions the rule applies to; empty means every version.
	Versions []int
	// ClusterProfiles the rule applies to; empty means every profile.
	ClusterProfiles []ClusterProfileName
	// FeatureSets the rule applies to; empty means none, so such a rule
	// never matches.
	FeatureSets []FeatureSetName
}

// Matches reports whether the rule turns its gate on for the tuple.
func (r EnablementRule) Matches(t Tuple) bool {
	if len(r.Versions) > 0 && !slices.Contains(r.Versions, t.Version) {
		return false
	}
	if len(r.ClusterProfiles) > 0 && !slices.Contains(r.ClusterProfiles, t.ClusterProfile) {
		return false
	}
	return slices.Contains(r.FeatureSets, t.FeatureSet)
}

func (r EnablementRule) clone() EnablementRule {
	return EnablementRule{
		Versions:        slices.Clone(r.Versions),
		ClusterProfiles: slices.Clone(r.ClusterProfiles),
		FeatureSets:     slices.Clone(r.FeatureSets),
	}
}

// EnablementOption adds a version, profile or feature set to the rule being
// built by [FeatureGateBuilder.Enable]. Options are applied in order; within a
// rule every kind of option accumulates (union). Options are made only by the
// In... functions of this package.
type EnablementOption func(*ruleDraft)

// ruleDraft collects options; mistakes are kept as errors and reported by
// Register, so that building never panics.
type ruleDraft struct {
	rule EnablementRule
	errs []error
}

func addSorted[T ~string | ~int](list []T, v T) []T {
	i, found := slices.BinarySearch(list, v)
	if found {
		return list
	}
	return slices.Insert(list, i, v)
}

func inFeatureSet(fs FeatureSetName) EnablementOption {
	return func(d *ruleDraft) {
		if !fs.IsKnown() {
			d.errs = append(d.errs, fmt.Errorf("unknown feature set %q", fs))
			return
		}
		d.rule.FeatureSets = addSorted(d.rule.FeatureSets, fs)
	}
}

// InDefault adds the Default feature set to the rule.
func InDefault() EnablementOption { return inFeatureSet(Default) }

// InTechPreviewNoUpgrade adds the TechPreviewNoUpgrade feature set to the rule.
func InTechPreviewNoUpgrade() EnablementOption { return inFeatureSet(TechPreviewNoUpgrade) }

// InDevPreviewNoUpgrade adds the DevPreviewNoUpgrade feature set to the rule.
func InDevPreviewNoUpgrade() EnablementOption { return inFeatureSet(DevPreviewNoUpgrade) }

// InCustomNoUpgrade adds the CustomNoUpgrade feature set to the rule. It only
// matters to [Registry.FeatureSets] callers asking about CustomNoUpgrade
// explicitly; rendered outputs ignore that feature set.
func InCustomNoUpgrade() EnablementOption { return inFeatureSet(CustomNoUpgrade) }

// InOKD adds the OKD feature set to the rule.
func InOKD() EnablementOption { return inFeatureSet(OKD) }

// InClusterProfile restricts the rule to profile p; repeat it to allow
// several profiles. Only rendered profiles ([ClusterProfiles]) are accepted.
func InClusterProfile(p ClusterProfileName) EnablementOption {
	return func(d *ruleDraft) {
		if !p.IsRendered() {
			d.errs = append(d.errs, fmt.Errorf("cluster profile %q is not one of %v", p, ClusterProfiles()))
			return
		}
		d.rule.ClusterProfiles = addSorted(d.rule.ClusterProfiles, p)
	}
}

// InVersion restricts the rule to the major versions selected by "op v":
//
//	"="  exactly v (v may lie outside MinVersion..MaxVersion; it then joins
//	     the version dimension of the registry)
//	">"  v+1 .. MaxVersion
//	">=" v   .. MaxVersion
//	"<"  MinVersion .. v-1
//	"<=" MinVersion .. v
//
// Ranges are clamped to MinVersion..MaxVersion. Repeated conditions add up
// (union). A condition that selects no version, an unknown operator or a
// non-positive v is reported by Register.
func InVersion(v int, op VersionOperator) EnablementOption {
	return func(d *ruleDraft) {
		versions, err := expandVersionCondition(v, op)
		if err != nil {
			d.errs = append(d.errs, err)
			return
		}
		for _, version := range versions {
			d.rule.Versions = addSorted(d.rule.Versions, version)
		}
	}
}
