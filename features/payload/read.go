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
	// duplicates. It is empty for pre-version files (no annotation), which
	// cover every version.
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

// Covers reports whether m applies to the given version. A pre-version
// manifest (no versions) applies to every version.
func (m Manifest) Covers(version int) bool {
	return len(m.Versions) == 0 || slices.Contains(m.Versions, version)
}

// SkippedFile is a directory entry that ReadDir did not turn into a Manifest,
// with the reason (not a manifest file name, directory, a pre-version file
// named for no profile and feature set).
type SkippedFile struct {
	FileName string
	Reason   string
}

// Directory is the content of a payload directory.
type Directory struct {
	// Path is the directory read, or "" for ReadFiles.
	Path string
	// Era is the era whose payload format the directory was read in: the
	// detected one (Era202601 for the pre-version format, Era202603 for
	// versioned files) unless the reader was given one.
	Era Era
	// Manifests are ordered by feature set, profile and first version. No
	// two of them cover the same (version, profile, feature set). In a
	// pre-version directory (Era.Versioned false) there is exactly one per
	// rendered profile and feature set of the directory, without versions,
	// taken from the file named for them.
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
// recursively) in the format its files show ([DetectEra]): versioned files
// (every file carries the major-version annotation) or the pre-version
// format (none does), where a profile and feature set read the file named
// for them, whatever its annotations say. Hidden files, other files and subdirectories are
// listed in Skipped. It fails, naming the files concerned, when the
// directory cannot be read, when a file is unreadable or malformed (every
// such file is reported), when the directory mixes both formats, when two
// files cover the same (version, profile, feature set), when a pre-version
// directory lacks the file of a profile and feature set, or when there is
// no FeatureGate manifest: consumers would otherwise silently render
// nothing.
func ReadDir(dir string) (*Directory, error) {
	return ReadDirEra(dir, "")
}

// ReadDirEra is ReadDir in the payload format of the given era instead of
// the detected one; "" detects. Reading a pre-version directory as a
// versioned era fails (no versioned manifest), and so does reading a
// versioned one as a pre-version era (the files named for each profile and
// feature set are missing).
func ReadDirEra(dir string, era Era) (*Directory, error) {
	files, skipped, err := listFiles(dir)
	if err != nil {
		return nil, err
	}
	return readListed(dir, files, skipped, era)
}

// readListed is ReadDirEra once the directory was listed and its files
// read.
func readListed(dir string, files []File, skipped []SkippedFile, era Era) (*Directory, error) {
	d, err := readFiles(dir, files, skipped, era)
	if err != nil {
		return nil, fmt.Errorf("payload directory %s: %w", dir, err)
	}
	return d, nil
}

// listFiles reads the manifest files of dir and lists the other entries.
func listFiles(dir string) ([]File, []SkippedFile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("reading payload directory: %w", err)
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
		return nil, nil, errors.Join(errs...)
	}
	return files, skipped, nil
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
	return readFiles("", files, nil, "")
}

func readFiles(dir string, files []File, skipped []SkippedFile, era Era) (*Directory, error) {
	if era == "" {
		detected, err := DetectEraFiles(files)
		if err != nil {
			return nil, err
		}
		era = detected
	} else if _, err := ParseEra(string(era)); err != nil {
		return nil, err
	}
	d := &Directory{Path: dir, Era: era, Skipped: skipped}
	read := readVersioned
	if !era.Versioned() {
		read = readUnversioned
	}
	if err := read(d, files); err != nil {
		return nil, err
	}
	slices.SortFunc(d.Manifests, func(a, b Manifest) int {
		return cmp.Or(
			cmp.Compare(a.FeatureSet, b.FeatureSet),
			cmp.Compare(a.ClusterProfile, b.ClusterProfile),
			cmp.Compare(firstVersion(a), firstVersion(b)),
			cmp.Compare(a.FileName, b.FileName))
	})
	slices.SortFunc(d.Skipped, func(a, b SkippedFile) int { return cmp.Compare(a.FileName, b.FileName) })
	return d, nil
}

// readVersioned reads the files of a versioned directory: each file covers
// the versions of its annotation.
func readVersioned(d *Directory, files []File) error {
	var errs []error
	for _, f := range files {
		m, err := ParseManifest(f.Name, f.Data)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(m.Versions) == 0:
			errs = append(errs, &FileError{FileName: f.Name,
				Err: fmt.Errorf("has no %s annotation, which every file of a versioned payload directory needs", MajorVersionAnnotation)})
		default:
			d.Manifests = append(d.Manifests, m)
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if len(d.Manifests) == 0 {
		return fmt.Errorf("no versioned FeatureGate manifest (none carries %s)", MajorVersionAnnotation)
	}
	return checkOverlaps(d.Manifests)
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
