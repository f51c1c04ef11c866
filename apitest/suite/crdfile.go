package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/features/payload"
)

// CRDFile is one generated CRD manifest and what its annotations say about
// where it applies.
type CRDFile struct {
	Path string
	CRD  *server.CRD
	// Profiles are the ClusterProfiles whose annotation is "true", in the
	// order of their annotation keys.
	Profiles []featuregate.ClusterProfileName
	// FeatureSetAnnotation is the release.openshift.io/feature-set value as
	// written; "" when the file has none.
	FeatureSetAnnotation string
	// FeatureSets is FeatureSetAnnotation split at commas; nil when the
	// file has none.
	FeatureSets []featuregate.FeatureSetName
	// MajorVersions is the release.openshift.io/major-version annotation;
	// nil when the file has none, that is, it applies to every version.
	MajorVersions []int
}

// NewCRDFile describes a CRD read from path.
func NewCRDFile(path string, crd *server.CRD) (*CRDFile, error) {
	f := &CRDFile{Path: path, CRD: crd}
	keys := make([]string, 0, len(crd.Annotations))
	for key := range crd.Annotations {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		if profile, ok := featuregate.ClusterProfileForAnnotationKey(key); ok && crd.Annotations[key] == "true" {
			f.Profiles = append(f.Profiles, profile)
		}
	}
	if value, ok := crd.Annotations[payload.FeatureSetAnnotation]; ok {
		f.FeatureSetAnnotation = value
		for _, name := range strings.Split(value, ",") {
			f.FeatureSets = append(f.FeatureSets, featuregate.FeatureSetName(strings.TrimSpace(name)))
		}
	}
	if value, ok := crd.Annotations[payload.MajorVersionAnnotation]; ok {
		for _, field := range strings.Split(value, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(field))
			if err != nil {
				return nil, fmt.Errorf("%s: annotation %s: %q is not a list of major versions", path, payload.MajorVersionAnnotation, value)
			}
			f.MajorVersions = append(f.MajorVersions, v)
		}
	}
	return f, nil
}

// ReadCRDDir reads every .yaml file of a directory of generated CRD
// manifests (not recursively), sorted by name. Each must hold exactly one
// CustomResourceDefinition.
func ReadCRDDir(dir string) ([]*CRDFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []*CRDFile
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".yaml" {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		crds, err := server.DecodeCRDs(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(crds) != 1 {
			return nil, fmt.Errorf("%s: want one CustomResourceDefinition, found %d", path, len(crds))
		}
		f, err := NewCRDFile(path, crds[0])
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// versionNames returns the names of the CRD's versions.
func (f *CRDFile) versionNames() []string {
	names := make([]string, len(f.CRD.Spec.Versions))
	for i, v := range f.CRD.Spec.Versions {
		names[i] = v.Name
	}
	return names
}

// profileList returns the file's ClusterProfiles comma-joined.
func (f *CRDFile) profileList() string {
	names := make([]string, len(f.Profiles))
	for i, p := range f.Profiles {
		names[i] = string(p)
	}
	return strings.Join(names, ",")
}
