package manifestmerge

import (
	"slices"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// record is one tuple that has a CRD, or (after collapsing) a set of tuples
// that share one: the cartesian product of its three sets.
type record struct {
	// data identifies the cleaned CRD; equal CRDs have equal ids.
	data        int
	versions    []int    // ascending
	profiles    []int    // indices into clusterProfiles, ascending
	featureSets []string // sorted
}

// outputFile is one file the decision emits.
type outputFile struct {
	data int
	// components are the name components replacing MARKERS.
	components []string
	// The annotations the file gets: profile keys, major versions and
	// feature sets (each empty when the file gets none).
	profiles    []int
	versions    []int
	featureSets []string
	// keepFeatureGate keeps the release.openshift.io/feature-gate
	// annotation of the data; otherwise it is removed.
	keepFeatureGate bool
}

// decision chooses the fewest files representing every record
// (docs/reference-rules.md, "Which files are written"). allVersions and
// allFeatureSets are every version and feature set of the tuples; hasFeatureGate reports
// whether a CRD carries the release.openshift.io/feature-gate annotation.
func decide(records []record, allVersions []int, allFeatureSets []string, hasFeatureGate func(data int) bool) []outputFile {
	knownFS := map[string]bool{}
	knownP := map[int]bool{}
	knownFSByProfile := map[int]map[string]bool{}
	for _, r := range records {
		for _, p := range r.profiles {
			knownP[p] = true
			if knownFSByProfile[p] == nil {
				knownFSByProfile[p] = map[string]bool{}
			}
			for _, fs := range r.featureSets {
				knownFS[fs] = true
				knownFSByProfile[p][fs] = true
			}
		}
	}
	knownFSList := sortedKeys(knownFS)
	knownPList := sortedInts(knownP)

	groups := collapse(records)

	var out []outputFile
	for _, g := range groups {
		// A version component unless the CRD is the same in
		// every version.
		var components []string
		versions := g.versions
		if slices.Equal(versions, allVersions) {
			versions = nil
		} else {
			components = append(components, fgpayload.VersionRange(versions))
		}
		// pSame: the group has every profile with data; fsSame: every
		// feature set with data, or, when profiles differ, every feature
		// set with data on each of its profiles.
		pSame := slices.Equal(g.profiles, knownPList)
		fsSame := slices.Equal(g.featureSets, knownFSList)
		if !pSame {
			fsSame = true
			for _, p := range g.profiles {
				if !slices.Equal(g.featureSets, sortedKeys(knownFSByProfile[p])) {
					fsSame = false
				}
			}
		}
		// The feature-gate annotation replaces the feature-set
		// annotation when the CRD is the same in every feature set where
		// it exists.
		featureSets := g.featureSets
		keepFeatureGate := hasFeatureGate(g.data) && fsSame
		if keepFeatureGate {
			featureSets = nil
		}
		// Listing every feature set says nothing.
		if slices.Equal(featureSets, allFeatureSets) {
			featureSets = nil
		}
		// One file, or one per profile, feature set or both. Each file's
		// components are computed from the group's own, never from a
		// sibling's.
		emit := func(extra []string, profiles []int, fs []string) {
			out = append(out, outputFile{
				data:            g.data,
				components:      append(append([]string(nil), components...), extra...),
				profiles:        profiles,
				versions:        versions,
				featureSets:     fs,
				keepFeatureGate: keepFeatureGate,
			})
		}
		switch {
		case fsSame && pSame:
			emit(nil, g.profiles, featureSets)
		case fsSame:
			for _, p := range g.profiles {
				emit([]string{string(clusterProfiles[p])}, []int{p}, featureSets)
			}
		case pSame:
			for _, fs := range g.featureSets {
				emit([]string{fs}, g.profiles, []string{fs})
			}
		default:
			for _, p := range g.profiles {
				for _, fs := range g.featureSets {
					emit([]string{string(clusterProfiles[p]), fs}, []int{p}, []string{fs})
				}
			}
		}
	}
	return out
}

// collapse merges the records of equal content into products
// ([featuregate.CollapseLabeled]): versions first, then feature sets, then
// profiles, in the order of each product's first record. The records given
// are single tuples, as the merge makes them; one of several tuples counts
// as its tuples.
func collapse(records []record) []record {
	var in []featuregate.Labeled[int]
	for _, r := range records {
		for _, v := range r.versions {
			for _, p := range r.profiles {
				for _, fs := range r.featureSets {
					t := featuregate.Tuple{Version: v, ClusterProfile: clusterProfiles[p], FeatureSet: featuregate.FeatureSetName(fs)}
					in = append(in, featuregate.Labeled[int]{Label: r.data, Tuple: t})
				}
			}
		}
	}
	ps := featuregate.CollapseLabeled(in)
	out := make([]record, len(ps))
	for i, p := range ps {
		r := record{data: p.Label, versions: p.Versions}
		for _, prof := range p.ClusterProfiles {
			r.profiles = append(r.profiles, profileIndexOf(prof))
		}
		slices.Sort(r.profiles)
		for _, fs := range p.FeatureSets {
			r.featureSets = append(r.featureSets, string(fs))
		}
		out[i] = r
	}
	return out
}
