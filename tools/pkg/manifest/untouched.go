package manifest

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/suitefile"
)

// OverridesDirName is the directory below a version directory that holds
// the manual overrides of stage 3, one sub-directory per CRD.
const OverridesDirName = "manual-override-crd-manifests"

// Untouched names the CRDs ("<plural>.<group>") a run restricted to some
// CRDs leaves as the tree holds them (pipeline.Options.Kinds, set by
// codegen watch for the CRDs no changed declaration reaches): stages 2 and
// 3 neither read nor write their partial manifests, overrides and merged
// outputs, and stage 2 does not read their API test suites. A nil or
// empty set touches every CRD.
type Untouched map[string]bool

// Dir reports whether path lies in the partial manifest, override or API
// test suite directory of an untouched CRD (<version>/<dir>/<crd>/<file>).
// A suite is no CRD manifest (stage 2 reads it only to find that out),
// and the directory it is in names the CRD it tests (suitefile).
func (u Untouched) Dir(path string) bool {
	if len(u) == 0 {
		return false
	}
	crdDir := filepath.Dir(path)
	switch filepath.Base(filepath.Dir(crdDir)) {
	case PartialManifestsDirName, OverridesDirName, suitefile.TestsDir:
		return u[filepath.Base(crdDir)]
	}
	return false
}

// Merged reports whether data, a file of a version's merged output
// directory, is a merged manifest of an untouched CRD: its metadata.name,
// read from the lines stage 3 writes without parsing the YAML, names one.
// A file whose name cannot be read so is not.
func (u Untouched) Merged(data []byte) bool {
	if len(u) == 0 {
		return false
	}
	name, ok := MetadataName(data)
	return ok && u[name]
}

// MetadataName returns metadata.name of a manifest serialised as
// Marshal writes it (block style, two-space indentation, plain scalars):
// the "  name:" line of its top-level metadata block. ok is false when
// there is none, or when the value is not a plain one.
func MetadataName(data []byte) (string, bool) {
	_, rest, found := bytes.Cut(data, []byte("\nmetadata:\n"))
	if !found {
		return "", false
	}
	for len(rest) > 0 && rest[0] == ' ' {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		value, ok := bytes.CutPrefix(line, []byte("  name: "))
		if !ok {
			continue
		}
		name := string(value)
		if name == "" || strings.ContainsAny(name, "\"'#:{}[]& ") {
			return "", false
		}
		return name, true
	}
	return "", false
}
