package suite

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/features/crdvariant"
)

// CRDFile is one generated CRD manifest and what its annotations say about
// where it applies.
type CRDFile struct {
	Path string
	CRD  *server.CRD
	// Variants are the file's variant annotations, read by the decoder the
	// merge's readers share (features/crdvariant).
	Variants crdvariant.Annotations
}

// NewCRDFile describes a CRD read from path.
func NewCRDFile(path string, crd *server.CRD) (*CRDFile, error) {
	variants, err := crdvariant.Decode(crd.Annotations)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &CRDFile{Path: path, CRD: crd, Variants: variants}, nil
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
	return crdvariant.JoinNames(f.Variants.Profiles)
}

// featureSetList returns the file's feature sets comma-joined, "" when it
// has no feature-set annotation.
func (f *CRDFile) featureSetList() string {
	return crdvariant.JoinNames(f.Variants.FeatureSets)
}
