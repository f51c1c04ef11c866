package payload

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// Manifest is what a reader needs from one payload FeatureGate file.
type Manifest struct {
	// FileName is the base name of the file it was read from.
	FileName       string
	ClusterProfile featuregate.ClusterProfileName
	FeatureSet     featuregate.FeatureSetName
	// Versions is the major-version annotation, ascending and without
	// duplicates. ParseManifest leaves it empty for legacy files (no
	// annotation); a Directory never contains such manifests.
	Versions []int
	// Enabled and Disabled are status.featureGates[0], sorted by name.
	// A null list in the file reads as empty; both are never nil.
	Enabled  []featuregate.FeatureGateName
	Disabled []featuregate.FeatureGateName
	// PayloadVersion is status.featureGates[0].version.
	PayloadVersion string
}

// IsEnabled reports whether the gate is in m.Enabled.
func (m Manifest) IsEnabled(name featuregate.FeatureGateName) bool {
	return slices.Contains(m.Enabled, name)
}

// Covers reports whether m applies to the given version.
func (m Manifest) Covers(version int) bool {
	return slices.Contains(m.Versions, version)
}

// SkippedFile is a directory entry that ReadDir did not turn into a Manifest,
// with the reason (legacy unversioned manifest, not a manifest file name,
// directory).
type SkippedFile struct {
	FileName string
	Reason   string
}

// Directory is the content of a payload directory.
type Directory struct {
	// Path is the directory read, or "" for ReadFiles.
	Path string
	// Manifests are the versioned manifests ordered by feature set, profile
	// and first version. No two of them cover the same (version, profile,
	// feature set).
	Manifests []Manifest
	// Skipped lists ignored entries, sorted by name.
	Skipped []SkippedFile
}

// Lookup returns the manifest that covers the tuple.
func (d *Directory) Lookup(version int, profile featuregate.ClusterProfileName, fs featuregate.FeatureSetName) (Manifest, bool) {
	for _, m := range d.Manifests {
		if m.ClusterProfile == profile && m.FeatureSet == fs && m.Covers(version) {
			return m, true
		}
	}
	return Manifest{}, false
}

// Versions returns every version covered by some manifest, ascending.
func (d *Directory) Versions() []int {
	var all []int
	for _, m := range d.Manifests {
		all = append(all, m.Versions...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// Gates returns every gate named by some manifest (enabled or disabled),
// sorted by name.
func (d *Directory) Gates() []featuregate.FeatureGateName {
	var all []featuregate.FeatureGateName
	for _, m := range d.Manifests {
		all = append(all, m.Enabled...)
		all = append(all, m.Disabled...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// manifestExtensions are the file name extensions ReadDir parses.
var manifestExtensions = []string{".yaml", ".yml", ".json"}

// ReadDir reads every .yaml, .yml and .json file of a payload directory (not
// recursively). Hidden files, other files and subdirectories are listed in
// Skipped, as are legacy files without the major-version annotation. It fails,
// naming the files concerned, when the directory cannot be read, when a file
// is unreadable or malformed (every such file is reported), when two files
// cover the same (version, profile, feature set), or when no versioned
// manifest is found: consumers would otherwise silently render nothing.
func ReadDir(dir string) (*Directory, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading payload directory: %w", err)
	}
	var files []File
	var skipped []SkippedFile
	var errs []error
	for _, e := range entries {
		if reason := skipReason(e); reason != "" {
			skipped = append(skipped, SkippedFile{FileName: e.Name(), Reason: reason})
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, File{Name: e.Name(), Data: data})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	d, err := readFiles(dir, files, skipped)
	if err != nil {
		return nil, fmt.Errorf("payload directory %s: %w", dir, err)
	}
	return d, nil
}

func skipReason(e os.DirEntry) string {
	switch {
	case e.IsDir():
		return "directory"
	case strings.HasPrefix(e.Name(), "."):
		return "hidden file"
	case !slices.Contains(manifestExtensions, filepath.Ext(e.Name())):
		return "not a .yaml, .yml or .json file"
	}
	return ""
}

// ReadFiles is ReadDir for files held in memory, such as the output of
// Render; it lets a verifier derive features.md from freshly rendered
// manifests without writing them. Every file is parsed whatever its name.
func ReadFiles(files []File) (*Directory, error) {
	return readFiles("", files, nil)
}

func readFiles(dir string, files []File, skipped []SkippedFile) (*Directory, error) {
	d := &Directory{Path: dir, Skipped: skipped}
	var errs []error
	for _, f := range files {
		m, err := ParseManifest(f.Name, f.Data)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(m.Versions) == 0:
			d.Skipped = append(d.Skipped, SkippedFile{FileName: f.Name,
				Reason: "legacy manifest without the " + MajorVersionAnnotation + " annotation"})
		default:
			d.Manifests = append(d.Manifests, m)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(d.Manifests) == 0 {
		return nil, fmt.Errorf("no versioned FeatureGate manifest (none carries %s)", MajorVersionAnnotation)
	}
	slices.SortFunc(d.Manifests, func(a, b Manifest) int {
		return cmp.Or(
			cmp.Compare(a.FeatureSet, b.FeatureSet),
			cmp.Compare(a.ClusterProfile, b.ClusterProfile),
			cmp.Compare(firstVersion(a), firstVersion(b)),
			cmp.Compare(a.FileName, b.FileName))
	})
	slices.SortFunc(d.Skipped, func(a, b SkippedFile) int { return cmp.Compare(a.FileName, b.FileName) })
	if err := checkOverlaps(d.Manifests); err != nil {
		return nil, err
	}
	return d, nil
}

// checkOverlaps rejects two files answering the same tuple: which one wins
// would depend on directory order.
func checkOverlaps(manifests []Manifest) error {
	owner := map[featuregate.Tuple]string{}
	var errs []error
	for _, m := range manifests {
		for _, v := range m.Versions {
			t := featuregate.Tuple{Version: v, ClusterProfile: m.ClusterProfile, FeatureSet: m.FeatureSet}
			if other, dup := owner[t]; dup {
				errs = append(errs, fmt.Errorf("%s and %s both cover version %d of %s on %s",
					other, m.FileName, v, m.FeatureSet, m.ClusterProfile))
				continue
			}
			owner[t] = m.FileName
		}
	}
	return errors.Join(errs...)
}
