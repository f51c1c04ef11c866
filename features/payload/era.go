package payload

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/internal/refera"
)

// Era names a period of the reference generator (openshift/api's codegen)
// whose output a repository's committed files follow; internal/refera
// defines it, with the dated changes that delimit the eras, so that the
// repository configuration can name an era without importing this package.
// The payload FeatureGate directory shows an era's format ([DetectEra]).
type Era = refera.Era

// A Change is a change of the reference that alters its output.
type Change = refera.Change

// The changes of the reference since September 2025 that alter its output
// (internal/refera documents each).
var (
	StableMergeOrder          = refera.StableMergeOrder
	TypeMarkersAcrossPackages = refera.TypeMarkersAcrossPackages
	SeparateEnums             = refera.SeparateEnums
	GatedCRDsInOneFile        = refera.GatedCRDsInOneFile
	VersionAware              = refera.VersionAware
	AtomicValidations         = refera.AtomicValidations
)

// The eras the payload format and the configuration's month names tell.
const (
	Era202509 = refera.Era202509
	Era202601 = refera.Era202601
	Era202602 = refera.Era202602
	Era202603 = refera.Era202603
)

// Changes lists every Change, oldest first.
func Changes() []Change { return refera.Changes() }

// Eras lists every era, oldest first.
func Eras() []Era { return refera.Eras() }

// EraAt is the era of the reference as it was on date (YYYY-MM-DD).
func EraAt(date string) Era { return refera.EraAt(date) }

// ParseEra checks an era name as a repository configuration spells it.
func ParseEra(s string) (Era, error) { return refera.ParseEra(s) }

// DetectEra tells the era of a payload directory from its files: when no
// file carries the major-version annotation it is the pre-version format
// (Era202601), when every file does it is the current one (Era202603).
// Files ReadDir would skip (hidden, other extensions, directories) are not
// considered. A directory mixing both kinds is an error naming the files
// of each kind; so is a directory without any FeatureGate manifest, and a
// file that cannot be parsed.
func DetectEra(dir string) (Era, error) {
	files, _, err := listFiles(dir)
	if err != nil {
		return "", err
	}
	e, err := DetectEraFiles(files)
	if err != nil {
		return "", fmt.Errorf("payload directory %s: %w", dir, err)
	}
	return e, nil
}

// DetectEraFiles is DetectEra for files held in memory.
func DetectEraFiles(files []File) (Era, error) {
	var versioned, unversioned []string
	var errs []error
	for _, f := range files {
		has, err := hasMajorVersion(f.Data)
		switch {
		case err != nil:
			errs = append(errs, &FileError{FileName: f.Name, Err: err})
		case has:
			versioned = append(versioned, f.Name)
		default:
			unversioned = append(unversioned, f.Name)
		}
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	slices.Sort(versioned)
	slices.Sort(unversioned)
	switch {
	case len(versioned) > 0 && len(unversioned) > 0:
		return "", fmt.Errorf("mixes versioned and unversioned FeatureGate manifests (a directory is either all versioned, "+
			"as the reference writes since February 2026, or all unversioned, as before): with %s: %s; without: %s",
			MajorVersionAnnotation, strings.Join(versioned, ", "), strings.Join(unversioned, ", "))
	case len(versioned) > 0:
		return Era202603, nil
	case len(unversioned) > 0:
		return Era202601, nil
	}
	return "", errors.New("no FeatureGate manifest (.yaml, .yml or .json file)")
}

// hasMajorVersion reports whether a FeatureGate file carries the
// major-version annotation.
func hasMajorVersion(data []byte) (bool, error) {
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		return false, fmt.Errorf("not valid JSON or YAML: %w", err)
	}
	if obj == nil {
		return false, errors.New("empty document")
	}
	if kind, _ := obj["kind"].(string); kind != "FeatureGate" {
		return false, fmt.Errorf("kind is %q, want FeatureGate", obj["kind"])
	}
	annotations, err := stringMap(obj, "metadata", "annotations")
	if err != nil {
		return false, err
	}
	_, ok := annotations[MajorVersionAnnotation]
	return ok, nil
}
