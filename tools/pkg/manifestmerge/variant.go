package manifestmerge

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
	fgpayload "github.com/gatedcrd/gatedcrd/features/payload"
)

// FindVariant returns the tuple of the payload directory d for the given
// ClusterProfile name, feature set and major version, with its enabled
// gates; version 0 selects the highest major version the payload knows.
// The error lists what exists.
func FindVariant(d *fgpayload.Directory, profile, featureSet string, version int) (featuregate.TupleGates, error) {
	pl, err := readPayloadStrict(d)
	if err != nil {
		return featuregate.TupleGates{}, err
	}
	if profileIndexOf(featuregate.ClusterProfileName(profile)) < 0 {
		return featuregate.TupleGates{}, fmt.Errorf("unknown cluster profile %q; known: %s", profile, joinProfiles())
	}
	if !slices.Contains(pl.featureSets, featureSet) {
		return featuregate.TupleGates{}, fmt.Errorf("unknown feature set %q; the payload knows %s", featureSet, strings.Join(pl.featureSets, ", "))
	}
	if version == 0 {
		version = pl.versions[len(pl.versions)-1]
	}
	want := featuregate.Tuple{Version: version, ClusterProfile: featuregate.ClusterProfileName(profile), FeatureSet: featuregate.FeatureSetName(featureSet)}
	for _, t := range pl.tuples {
		if t.Tuple == want {
			return t, nil
		}
	}
	return featuregate.TupleGates{}, fmt.Errorf("the payload has no FeatureGate manifest for %s %s at major version %d (major versions: %s)", profile, featureSet, version, ints(pl.versions))
}

func joinProfiles() string {
	names := make([]string, len(clusterProfiles))
	for i, p := range clusterProfiles {
		names[i] = string(p)
	}
	return strings.Join(names, ", ")
}

// ints spells versions as a comma-separated list.
func ints(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}
