package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
)

// Annotation keys shared by the stages (docs/reference-rules.md,
// "Annotation keys").
const (
	// FeatureGateAnnotationPrefix + <Gate> marks the gate(s) a partial
	// manifest belongs to; the bare prefix (empty gate name) means ungated.
	FeatureGateAnnotationPrefix = "feature-gate.release.openshift.io/"
	// FilenameAnnotationPrefix starts the three file-name pattern keys.
	FilenameAnnotationPrefix   = "api.openshift.io/filename"
	FilenameRunLevelAnnotation = "api.openshift.io/filename-cvo-runlevel"
	FilenameOperatorAnnotation = "api.openshift.io/filename-operator"
	FilenameOrderingAnnotation = "api.openshift.io/filename-ordering"
	ApprovedAnnotation         = "api-approved.openshift.io"
	CapabilityAnnotation       = "capability.openshift.io/name"
	// IncludeAnnotationPrefix + <profile> restricts a manifest to
	// profiles. It and the next three are the variant annotations of a
	// generated CRD, which features/crdvariant defines, reads and writes.
	IncludeAnnotationPrefix = crdvariant.IncludeAnnotationPrefix
	FeatureSetAnnotation    = crdvariant.FeatureSetAnnotation
	MajorVersionAnnotation  = crdvariant.MajorVersionAnnotation
	FeatureGatePassThrough  = crdvariant.FeatureGateAnnotation
	// MergedAnnotation marks stage 3 output; stage 2 skips such files.
	MergedAnnotation = "api.openshift.io/merged-by-featuregates"
	// PartialFilenameAnnotationPrefix records applied files during a merge.
	PartialFilenameAnnotationPrefix = "partial-filename.release.openshift.io/"
)

// PartialManifestsDirName is the directory below a version directory that
// holds the partial manifests of stage 1, one sub-directory per CRD.
const PartialManifestsDirName = "zz_generated.featuregated-crd-manifests"

// MergedManifestsDirName is the directory below a version directory that
// holds the merged CRD manifests of stage 3, and nothing else.
const MergedManifestsDirName = "zz_generated.crd-manifests"

// Marshal serialises obj the way every generated manifest is written: obj
// is first converted to a generic map (via JSON, honouring struct tags and
// omitempty) and then marshalled exactly as sigs.k8s.io/yaml.Marshal would.
func Marshal(obj any) ([]byte, error) {
	m, err := ToMap(obj)
	if err != nil {
		return nil, err
	}
	return marshalGeneric(m, emit)
}

// ToMap converts a typed object to the generic form used for serialisation
// and comparison. A map[string]any is returned unchanged.
func ToMap(obj any) (map[string]any, error) {
	if m, ok := obj.(map[string]any); ok {
		return m, nil
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("converting to a generic map: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("converting to a generic map: %w", err)
	}
	return m, nil
}

// Parse reads one YAML (or JSON) document into a generic map. An empty
// document yields a nil map and no error; one that YAML aliases blow up
// far beyond its size yields ErrExpansion.
func Parse(data []byte) (map[string]any, error) {
	return parseGeneric(data)
}

// CountDocuments counts the documents of a YAML stream that hold more
// than comments.
func CountDocuments(data []byte) int {
	if !bytes.Contains(data, []byte("---")) {
		// No separator line, the usual case: one document if a line holds
		// content. The search is far cheaper than splitting megabytes of
		// manifests into lines.
		if hasContent(data) {
			return 1
		}
		return 0
	}
	return countByLine(data)
}

// hasContent reports whether a line of data holds more than spaces, a
// comment or a document end marker.
func hasContent(data []byte) bool {
	for rest, more := data, true; more; {
		var line []byte
		line, rest, more = bytes.Cut(rest, []byte("\n"))
		if t := bytes.TrimSpace(line); len(t) > 0 && string(t) != "..." && t[0] != '#' {
			return true
		}
	}
	return false
}

// countByLine is CountDocuments for data that may hold separator lines.
func countByLine(data []byte) int {
	n, content := 0, false
	// Line by line without copying data: stage 2 counts the documents of
	// every merged manifest it presumes (megabytes on a large tree).
	for rest, more := data, true; more; {
		var line []byte
		line, rest, more = bytes.Cut(rest, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		if string(line) == "---" || bytes.HasPrefix(line, []byte("--- ")) {
			if content {
				n++
			}
			rest := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("---")))
			content = len(rest) > 0 && rest[0] != '#'
			continue
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && string(t) != "..." && t[0] != '#' {
			content = true
		}
	}
	if content {
		n++
	}
	return n
}
