package payload

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// UnversionedFileName is the name of the pre-version payload file of a
// profile and feature set: featureGate-<Profile>-<FeatureSet>.yaml.
func UnversionedFileName(profile featuregate.ClusterProfileName, fs featuregate.FeatureSetName) string {
	return fmt.Sprintf("featureGate-%s-%s.yaml", profile, fs)
}

// readUnversioned reads a pre-version directory as the reference did
// before February 2026 (docs/reference-rules.md, "Pre-version trees"): the feature sets are those of the
// files' spec.featureSet, and the gates of a rendered profile and feature
// set are those of the file named for them (UnversionedFileName),
// whatever that file's annotations say: an operator repository ships a
// featureGate-SelfManagedHA-*.yaml whose profile annotation says
// Hypershift. A missing file is an error naming it; a file named for no
// profile and feature set only contributes its feature set.
func readUnversioned(d *Directory, files []File) error {
	byName := map[string]Manifest{}
	featureSets := map[featuregate.FeatureSetName]bool{}
	var errs []error
	for _, f := range files {
		m, err := parseUnversioned(f.Name, f.Data)
		if err != nil {
			errs = append(errs, &FileError{FileName: f.Name, Err: err})
			continue
		}
		byName[f.Name] = m
		featureSets[m.FeatureSet] = true
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(byName) == 0 {
		return errors.New("no FeatureGate manifest (.yaml, .yml or .json file)")
	}
	used := map[string]bool{}
	for _, fs := range slices.Sorted(maps.Keys(featureSets)) {
		for _, p := range featuregate.ClusterProfiles() {
			name := UnversionedFileName(p, fs)
			m, ok := byName[name]
			if !ok {
				errs = append(errs, fmt.Errorf("%s is missing: a file of the directory has feature set %s, and in the pre-version format (no file carries %s) "+
					"the gates of every profile and feature set are read from the file named for them", name, fs, MajorVersionAnnotation))
				continue
			}
			used[name] = true
			m.ClusterProfile, m.FeatureSet = p, fs
			d.Manifests = append(d.Manifests, m)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, f := range files {
		if !used[f.Name] {
			d.Skipped = append(d.Skipped, SkippedFile{FileName: f.Name,
				Reason: "pre-version file named for no profile and feature set (featureGate-<Profile>-<FeatureSet>.yaml); only its feature set counts"})
		}
	}
	return nil
}

// parseUnversioned reads a pre-version payload file: its feature set
// (spec.featureSet, "" or absent for Default) and its gate lists. The
// profile is left to the file name.
func parseUnversioned(fileName string, data []byte) (Manifest, error) {
	obj, annotations, err := decodeFeatureGate(data)
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{FileName: fileName}
	if m.FeatureSet, err = featureSetOf(obj, annotations); err != nil {
		return Manifest{}, err
	}
	if err := readStatus(obj, &m); err != nil {
		return Manifest{}, err
	}
	return m, nil
}
