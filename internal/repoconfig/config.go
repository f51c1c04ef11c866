package repoconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/features/payload"
)

// FileName is the repository configuration file, in the base directory.
const FileName = ".gatedcrd.yaml"

// Config is the content of .gatedcrd.yaml, with defaults filled in.
type Config struct {
	// File is the path of the file read, or "" when there was none.
	File string

	// KubeVersion is the Kubernetes minor release the API types target,
	// e.g. "1.32". Setting it opts in to its findings as errors; "" when
	// not set: the release is inferred (internal/kubetarget) and its
	// findings are warnings.
	KubeVersion KubeVersion

	// PayloadCRDs selects the generated CRD manifests copied into the
	// payload directory.
	PayloadCRDs PayloadCRDs

	// RequiredAnnotations lists annotations every final CRD manifest of
	// some API groups must carry.
	RequiredAnnotations RequiredAnnotations

	// Compatibility configures the compatibility level comments.
	Compatibility Compatibility

	// EnumFromConstants makes +enum (KEP-2887) on a string type set the
	// type's enum from its typed constants. Off by default: the reference
	// generator ignores +enum, and trees such as openshift/api write it
	// for openapi-gen next to +kubebuilder:validation:Enum.
	EnumFromConstants bool

	// FeatureGateDocs configures the per-gate lifecycle pages.
	FeatureGateDocs FeatureGateDocs

	// StrictMarkers, when set, decides whether strict-mode findings
	// (unknown markers, unknown FeatureGate names) are errors; nil leaves
	// them warnings unless a strict baseline or a flag opts in (SPEC 9.1).
	StrictMarkers *bool

	// ReferenceEra names the era of the reference whose output the tree
	// holds and whose rules generation follows (payload.Eras,
	// docs/zero-configuration.md: "Which era a tree is in"); "" detects it
	// from the payload FeatureGate directory.
	ReferenceEra payload.Era
}

// FeatureGateDocs is the featureGateDocs section: crd-manifests writes one
// page per FeatureGate into Directory (what the gate controls, where it is
// on). An empty Directory (the default) writes none.
type FeatureGateDocs struct {
	// Directory is relative to the base directory, slash-separated.
	Directory string
	// Line is the line of the section key (0 when not configured).
	Line int
}

// Compatibility is the compatibility section.
type Compatibility struct {
	// Enabled makes crd-manifests maintain the compatibility level lines
	// of the Go doc comments before generating schemas (codegen
	// compatibility always does).
	Enabled bool
	// Exceptions select GA types ("<package dir>.<Type>", e.g.
	// "security/v1.RangeAllocation", globs allowed) that may use level 2
	// or 4 instead of 1.
	Exceptions []Pattern
	// Line is the line of the section key (0 when not configured): a
	// configured section makes the level rules errors, not warnings.
	Line int
}

// Configured reports whether the file has a compatibility section.
func (c Compatibility) Configured() bool { return c.Line > 0 }

// KubeVersion is a Kubernetes "<major>.<minor>" release.
type KubeVersion struct {
	Major, Minor int
	// Line is the line of the key in the file (0 for the default).
	Line int
}

// IsSet reports whether the file gave a version.
func (k KubeVersion) IsSet() bool { return k.Major != 0 }

// String renders the version as "<major>.<minor>", or "" when not set.
func (k KubeVersion) String() string {
	if !k.IsSet() {
		return ""
	}
	return fmt.Sprintf("%d.%d", k.Major, k.Minor)
}

// ParseKubeVersion parses "<major>.<minor>" (digits, no leading zeros).
func ParseKubeVersion(s string) (KubeVersion, error) {
	maj, min, ok := strings.Cut(s, ".")
	major, err1 := number(maj)
	minor, err2 := number(min)
	if !ok || err1 != nil || err2 != nil || major == 0 {
		return KubeVersion{}, fmt.Errorf("%q is not a Kubernetes release; write <major>.<minor>, e.g. \"1.32\"", s)
	}
	return KubeVersion{Major: major, Minor: minor}, nil
}

func number(s string) (int, error) {
	if s == "" || (len(s) > 1 && s[0] == '0') || strings.TrimLeft(s, "0123456789") != "" {
		return 0, errors.New("not a number")
	}
	return strconv.Atoi(s)
}

// PayloadCRDs is the payloadCRDs section.
type PayloadCRDs struct {
	// Configured records that the section was given; without it no CRD is
	// copied and nothing is checked.
	Configured bool
	// Directory is where the copies go, relative to the base directory.
	Directory string
	// Include selects generated CRD files; Exclude names the files that are
	// deliberately not copied. Include wins: a file both patterns match is
	// copied, so a broad exclude can sit beside narrow includes.
	Include, Exclude []Pattern
	// Line is the line of the section key (0 when not configured).
	Line int
}

// Pattern is one glob (path.Match syntax, '/'-separated, relative to the
// base directory) with the line that gave it.
type Pattern struct {
	Glob string
	Line int
}

// RequiredAnnotations is the requiredAnnotations section.
type RequiredAnnotations struct {
	// GroupSuffix selects the API groups concerned: those whose name ends
	// in it. Empty means every group.
	GroupSuffix string
	// Annotations every final CRD manifest of those groups must carry. An
	// empty list switches the check off.
	Annotations []string
	// Line is the line of the section key (0 when not configured): without
	// the section the defaults are checked, and findings are warnings.
	Line int
}

// Configured reports whether the file has a requiredAnnotations section.
func (r RequiredAnnotations) Configured() bool { return r.Line > 0 }

// Default values.
const (
	DefaultPayloadCRDDirectory = "payload-manifests/crds"
	DefaultGroupSuffix         = ".openshift.io"
	DefaultApprovalAnnotation  = "api-approved.openshift.io"
)

// Defaults is the configuration of a repository without .gatedcrd.yaml.
func Defaults() Config {
	return Config{
		PayloadCRDs: PayloadCRDs{Directory: DefaultPayloadCRDDirectory},
		RequiredAnnotations: RequiredAnnotations{
			GroupSuffix: DefaultGroupSuffix,
			Annotations: []string{DefaultApprovalAnnotation},
		},
	}
}

// Load reads baseDir/.gatedcrd.yaml. A missing file yields Defaults(). The
// error is an *Error listing every problem found.
func Load(baseDir string) (Config, error) {
	file := filepath.Join(baseDir, FileName)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return Defaults(), &Error{Problems: []Problem{{File: file, Message: fmt.Sprintf("cannot be read: %v", err)}}}
	}
	return Parse(file, data)
}
