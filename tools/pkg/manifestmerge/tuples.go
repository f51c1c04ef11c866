package manifestmerge

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Feature-set names the stage treats specially.
const (
	featureSetDefault = string(featuregate.Default)
	featureSetCustom  = string(featuregate.CustomNoUpgrade)
)

// clusterProfiles are the profiles of every tuple, in tuple order:
// the profiles the FeatureGate registry renders. A tuple or a
// manifest refers to a profile by its index here.
var clusterProfiles = featuregate.ClusterProfiles()

// profileIndex returns the index in clusterProfiles of the profile whose
// include.release.openshift.io/ annotation key is key, or -1.
func profileIndex(key string) int {
	p, ok := featuregate.ClusterProfileForAnnotationKey(key)
	if !ok {
		return -1
	}
	return slices.Index(clusterProfiles, p)
}

// profileIndexOf returns the index of p in clusterProfiles; every tuple's
// profile is there.
func profileIndexOf(p featuregate.ClusterProfileName) int {
	return slices.Index(clusterProfiles, p)
}

// payload is what the stage derives from the FeatureGate files: the tuple
// dimensions and the tuples themselves, the same for every CRD.
type payload struct {
	// versions is every known major version, ascending.
	versions []int
	// featureSets is CustomNoUpgrade and every feature set of a
	// versioned payload file, sorted.
	featureSets []string
	// tuples hold their enabled gates, sorted; a CustomNoUpgrade tuple
	// holds none, since every gate counts as on there and the version is
	// not checked.
	tuples []featuregate.TupleGates
}

// readPayload computes the tuples (docs/reference-rules.md,
// "Tuples") from the payload directory
// (nil reads as empty). A Directory from fgpayload.ReadDir is already
// consistent; a hand-built one may not be, so problems with single
// manifests are still added to problems.
func readPayload(d *fgpayload.Directory, problems *diag.List) (*payload, error) {
	dir := "the payload FeatureGate directory"
	var manifests []fgpayload.Manifest
	if d != nil {
		manifests = d.Manifests
		if d.Path != "" {
			dir = d.Path
		}
	}
	// A pre-version directory's manifests have no versions; their tuples
	// carry noVersion.
	versioned := d == nil || d.Era == "" || d.Era.Versioned()
	byTuple := map[featuregate.Tuple]*fgpayload.Manifest{}
	pathOf := func(m *fgpayload.Manifest) string {
		if d.Path == "" {
			return m.FileName
		}
		return filepath.Join(d.Path, m.FileName)
	}
	versions := map[int]bool{}
	featureSets := map[string]bool{featureSetCustom: true}
	for i := range manifests {
		m := &manifests[i]
		mVersions := m.Versions
		if !versioned {
			mVersions = []int{noVersion}
		}
		if m.ClusterProfile == "" || len(mVersions) == 0 {
			continue
		}
		if profileIndexOf(m.ClusterProfile) < 0 {
			subject := m.ClusterProfile.AnnotationKey()
			if subject == "" {
				subject = string(m.ClusterProfile)
			}
			problems.Add(diag.Errorf(pathOf(m), 0, subject, "unknown cluster profile; known profiles are %s", knownProfiles()))
			continue
		}
		fs := string(featuregate.FeatureSetFromSpec(string(m.FeatureSet)))
		if fs == featureSetCustom {
			problems.Add(diag.Errorf(pathOf(m), 0, "spec.featureSet", "%s FeatureGate manifests are not rendered: that feature set selects every partial manifest", featureSetCustom))
			continue
		}
		featureSets[fs] = true
		for _, v := range mVersions {
			t := featuregate.Tuple{Version: v, ClusterProfile: m.ClusterProfile, FeatureSet: featuregate.FeatureSetName(fs)}
			if other, dup := byTuple[t]; dup {
				problems.Add(diag.Errorf(pathOf(m), 0, "", "describes %s %s version %d, like %s", m.ClusterProfile, fs, v, pathOf(other)))
				continue
			}
			byTuple[t] = m
			versions[v] = true
		}
	}
	if len(versions) == 0 && !versioned {
		return nil, fmt.Errorf("no FeatureGate manifest of a rendered cluster profile found in %s", dir)
	}
	if len(versions) == 0 {
		return nil, fmt.Errorf("no versioned FeatureGate manifests found in %s: stage 3 needs files carrying the release.openshift.io/major-version annotation and a cluster profile annotation", dir)
	}
	pl := &payload{versions: sortedInts(versions), featureSets: sortedKeys(featureSets)}
	for _, v := range pl.versions {
		for _, profile := range clusterProfiles {
			for _, fs := range pl.featureSets {
				t := featuregate.TupleGates{Tuple: featuregate.Tuple{Version: v, ClusterProfile: profile, FeatureSet: featuregate.FeatureSetName(fs)}}
				if fs == featureSetCustom {
					pl.tuples = append(pl.tuples, t)
					continue
				}
				m := byTuple[t.Tuple]
				if m == nil {
					continue
				}
				// A hand-built directory's lists may be unsorted.
				t.Enabled = slices.Sorted(slices.Values(m.Enabled))
				t.Disabled = slices.Sorted(slices.Values(m.Disabled))
				pl.tuples = append(pl.tuples, t)
			}
		}
	}
	return pl, nil
}

func knownProfiles() string {
	keys := make([]string, len(clusterProfiles))
	for i, p := range clusterProfiles {
		keys[i] = p.AnnotationKey()
	}
	return strings.Join(keys, ", ")
}

// pertinent reports whether m takes part in the merge for t
// (docs/reference-rules.md, "Pertinence", with the major-version annotation read as "t's version is in the list";
// unchecked for the tuples of a pre-version payload).
func (m *partialManifest) pertinent(t featuregate.TupleGates) bool {
	if m.restricted && !m.profiles[profileIndexOf(t.ClusterProfile)] {
		return false
	}
	if t.Custom() {
		return true
	}
	if m.versions != nil && t.Version != noVersion && !m.versions[t.Version] {
		return false
	}
	for _, g := range m.gates {
		if !t.IsEnabled(featuregate.FeatureGateName(g)) {
			return false
		}
	}
	return true
}

func sortedInts(set map[int]bool) []int {
	out := make([]int, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Ints(out)
	return out
}

func sortedKeys[V any](set map[string]V) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
