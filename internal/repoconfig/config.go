package repoconfig

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/refera"
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

	// KubeVersions are the Kubernetes minor releases the repository's API
	// test suites run on by default (apitest runs them all in one
	// command); nil when not set. Written as a list or a string of
	// versions and ranges: ["1.31", "1.36"], "1.31,1.36", "1.30-1.37".
	// Only apitest reads it; codegen targets KubeVersion.
	KubeVersions KubeVersionList

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
	// them warnings unless a strict baseline or a flag opts in
	// (docs/zero-configuration.md, "Opting in").
	StrictMarkers *bool

	// ReferenceEra names the era of the reference whose output the tree
	// holds and whose rules generation follows (refera.Eras,
	// docs/zero-configuration.md: "Which era a tree is in"); "" detects it
	// from the payload FeatureGate directory.
	ReferenceEra refera.Era
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

// KubeVersionList is the kubeVersions key: releases, oldest first, each
// once.
type KubeVersionList struct {
	Versions []KubeVersion
	// Line is the line of the key in the file (0 when not set).
	Line int
}

// IsSet reports whether the file gave the list.
func (l KubeVersionList) IsSet() bool { return len(l.Versions) > 0 }

// Strings renders the releases as "<major>.<minor>".
func (l KubeVersionList) Strings() []string {
	out := make([]string, len(l.Versions))
	for i, v := range l.Versions {
		out[i] = v.String()
	}
	return out
}

// ParseKubeVersions parses a list of releases and ranges separated by
// commas: "1.31,1.36", "1.30-1.37", "1.30-1.32,1.36". A range is
// inclusive and stays within one major version, its first release not
// after its last. The result is sorted, oldest first; a release given
// twice (also through overlapping ranges) is an error, and so is an empty
// list. Whether a release is supported is for the caller to decide.
func ParseKubeVersions(s string) ([]KubeVersion, error) {
	var out []KubeVersion
	seen := map[KubeVersion]bool{}
	add := func(v KubeVersion) error {
		if seen[v] {
			return fmt.Errorf("%s is listed twice in %q", v, s)
		}
		seen[v] = true
		out = append(out, v)
		return nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("%q has an empty entry; write releases and ranges separated by commas, e.g. \"1.31,1.36\" or \"1.30-1.37\"", s)
		}
		from, to, isRange := strings.Cut(part, "-")
		if !isRange {
			v, err := ParseKubeVersion(part)
			if err != nil {
				return nil, err
			}
			if err := add(v); err != nil {
				return nil, err
			}
			continue
		}
		lo, err := ParseKubeVersion(strings.TrimSpace(from))
		if err != nil {
			return nil, fmt.Errorf("range %q: %w", part, err)
		}
		hi, err := ParseKubeVersion(strings.TrimSpace(to))
		if err != nil {
			return nil, fmt.Errorf("range %q: %w", part, err)
		}
		if lo.Major != hi.Major {
			return nil, fmt.Errorf("range %q spans major versions; list the releases instead", part)
		}
		if lo.Minor > hi.Minor {
			return nil, fmt.Errorf("range %q runs backwards; write %s-%s", part, hi, lo)
		}
		for m := lo.Minor; m <= hi.Minor; m++ {
			if err := add(KubeVersion{Major: lo.Major, Minor: m}); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(out, func(a, b KubeVersion) int {
		return cmp.Or(cmp.Compare(a.Major, b.Major), cmp.Compare(a.Minor, b.Minor))
	})
	return out, nil
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
// error joins a diag.Diagnostic for every problem found, in line order.
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
		return Defaults(), diag.Errorf(file, 0, "", "cannot be read: %v", err)
	}
	return Parse(file, data)
}
