package manifestmerge

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
)

// FeatureGateFile is one rendered payload FeatureGate manifest
// (payload-manifests/featuregates/*.yaml, SPEC §2.5), as the caller read it.
type FeatureGateFile struct {
	// Path names the file in diagnostics.
	Path string
	// ProfileAnnotation is the annotation key whose value is
	// "false-except-for-the-config-operator", e.g.
	// "include.release.openshift.io/ibm-cloud-managed". A file without one
	// is ignored.
	ProfileAnnotation string
	// FeatureSet is spec.featureSet, with "Default" for the empty string
	// (the empty string is accepted and means "Default" too).
	FeatureSet string
	// Versions are the major versions of the
	// release.openshift.io/major-version annotation. A file without them
	// (the legacy unversioned format) is ignored.
	Versions []int
	// Enabled and Disabled are the gate names of status.featureGates[0].
	Enabled, Disabled []string
}

// Feature-set names the stage treats specially.
const (
	featureSetDefault = "Default"
	featureSetCustom  = "CustomNoUpgrade"
)

// ClusterProfile is a profile the stage produces CRDs for.
type ClusterProfile struct {
	// Annotation is the include.release.openshift.io/ key naming the profile.
	Annotation string
	// ShortName appears in output file names.
	ShortName string
}

// ClusterProfiles are the profiles of every tuple, in tuple order
// (SPEC §5.2).
var ClusterProfiles = []ClusterProfile{
	{Annotation: "include.release.openshift.io/ibm-cloud-managed", ShortName: "Hypershift"},
	{Annotation: "include.release.openshift.io/self-managed-high-availability", ShortName: "SelfManagedHA"},
}

func profileIndex(annotation string) int {
	for i, p := range ClusterProfiles {
		if p.Annotation == annotation {
			return i
		}
	}
	return -1
}

// tuple is one (major version, profile, feature set) combination for which
// a candidate CRD is computed.
type tuple struct {
	version    int
	profile    int // index into ClusterProfiles
	featureSet string
	// enabled is the set of gates on in the tuple; nil for CustomNoUpgrade,
	// where every gate counts as on and the version is not checked.
	enabled map[string]bool
}

func (t tuple) custom() bool { return t.enabled == nil }

func (t tuple) String() string {
	return fmt.Sprintf("%s/%s/%d", ClusterProfiles[t.profile].ShortName, t.featureSet, t.version)
}

// payload is what the stage derives from the FeatureGate files: the tuple
// dimensions and the tuples themselves, the same for every CRD.
type payload struct {
	// versions is AllV: every known major version, ascending.
	versions []int
	// featureSets is AllFS: CustomNoUpgrade and every feature set of a
	// versioned payload file, sorted.
	featureSets []string
	tuples      []tuple
}

// readPayload computes the tuples of SPEC §5.2 from the payload files.
// dir names the payload directory in the error about it having no
// versioned file. Problems with single files are added to problems.
func readPayload(files []FeatureGateFile, dir string, problems *diag.List) (*payload, error) {
	type slot struct {
		profile    int
		featureSet string
		version    int
	}
	bySlot := map[slot]*FeatureGateFile{}
	versions := map[int]bool{}
	featureSets := map[string]bool{featureSetCustom: true}
	for i := range files {
		f := &files[i]
		if f.ProfileAnnotation == "" || len(f.Versions) == 0 {
			continue
		}
		p := profileIndex(f.ProfileAnnotation)
		if p < 0 {
			problems.Add(diag.Errorf(f.Path, 0, f.ProfileAnnotation, "unknown cluster profile; known profiles are %s", knownProfiles()))
			continue
		}
		fs := f.FeatureSet
		if fs == "" {
			fs = featureSetDefault
		}
		if fs == featureSetCustom {
			problems.Add(diag.Errorf(f.Path, 0, "spec.featureSet", "%s FeatureGate manifests are not rendered: that feature set selects every partial manifest", featureSetCustom))
			continue
		}
		featureSets[fs] = true
		for _, v := range f.Versions {
			s := slot{p, fs, v}
			if other, dup := bySlot[s]; dup {
				problems.Add(diag.Errorf(f.Path, 0, "", "describes %s %s version %d, like %s", ClusterProfiles[p].ShortName, fs, v, other.Path))
				continue
			}
			bySlot[s] = f
			versions[v] = true
		}
	}
	if len(versions) == 0 {
		if dir == "" {
			dir = "the payload FeatureGate directory"
		}
		return nil, fmt.Errorf("no versioned FeatureGate manifests found in %s: stage 3 needs files carrying the release.openshift.io/major-version annotation and a cluster profile annotation", dir)
	}
	pl := &payload{versions: sortedInts(versions), featureSets: sortedKeys(featureSets)}
	for _, v := range pl.versions {
		for p := range ClusterProfiles {
			for _, fs := range pl.featureSets {
				if fs == featureSetCustom {
					pl.tuples = append(pl.tuples, tuple{version: v, profile: p, featureSet: fs})
					continue
				}
				f := bySlot[slot{p, fs, v}]
				if f == nil {
					continue
				}
				enabled := make(map[string]bool, len(f.Enabled))
				for _, g := range f.Enabled {
					enabled[g] = true
				}
				pl.tuples = append(pl.tuples, tuple{version: v, profile: p, featureSet: fs, enabled: enabled})
			}
		}
	}
	return pl, nil
}

// payloadDir guesses the payload directory from the files for messages.
func payloadDir(files []FeatureGateFile) string {
	if len(files) == 0 || files[0].Path == "" {
		return ""
	}
	return filepath.Dir(files[0].Path)
}

func knownProfiles() string {
	s := ""
	for i, p := range ClusterProfiles {
		if i > 0 {
			s += ", "
		}
		s += p.Annotation
	}
	return s
}

// pertinent reports whether m takes part in the merge for t (SPEC §5.3,
// with the major-version annotation read as "t's version is in the list").
func (m *partialManifest) pertinent(t tuple) bool {
	if m.restricted && !m.profiles[t.profile] {
		return false
	}
	if t.custom() {
		return true
	}
	if m.versions != nil && !m.versions[t.version] {
		return false
	}
	for _, g := range m.gates {
		if !t.enabled[g] {
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
