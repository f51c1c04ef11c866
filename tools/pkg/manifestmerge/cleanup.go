package manifestmerge

import (
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// removedAnnotationPrefixes are the annotations that only steer the
// pipeline; none reaches an output file.
var removedAnnotationPrefixes = []string{
	manifest.FilenameAnnotationPrefix,
	manifest.FeatureGateAnnotationPrefix,
	manifest.IncludeAnnotationPrefix,
	manifest.PartialFilenameAnnotationPrefix,
}

// removedAnnotations are input annotations whose output value the
// serialisation decision computes. A value coming from an input would
// describe the input's selection, not the output file, so it is dropped
// (the reference's rules do not say; see doc.go).
var removedAnnotations = []string{
	manifest.MajorVersionAnnotation,
	manifest.FeatureSetAnnotation,
}

// filePattern is the file name of a CRD's outputs with "MARKERS" standing
// for the name components (docs/reference-rules.md, "Output file names").
type filePattern struct {
	prefix string // everything before MARKERS
}

func (p filePattern) name(components []string) string {
	if len(components) == 0 {
		return p.prefix + outputExt
	}
	return p.prefix + "-" + strings.Join(components, "-") + outputExt
}

// patternOf computes the file name pattern of a merged CRD from its
// plural and file-name annotations. ok is false when the plural is
// missing.
func patternOf(obj map[string]any) (p filePattern, ok bool) {
	spec, _ := obj["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	plural, _ := names["plural"].(string)
	if plural == "" {
		return filePattern{}, false
	}
	ann := annotationsOf(obj)
	get := func(key string) (string, bool) {
		v, ok := ann[key].(string)
		return v, ok
	}
	runLevel, hasR := get(manifest.FilenameRunLevelAnnotation)
	operator, hasO := get(manifest.FilenameOperatorAnnotation)
	ordering, hasN := get(manifest.FilenameOrderingAnnotation)
	var parts []string
	switch {
	case hasR && hasO && hasN:
		parts = []string{runLevel, operator, ordering}
	case hasO && hasN:
		parts = []string{operator, ordering}
	case hasO:
		parts = []string{operator}
	case hasN:
		parts = []string{ordering}
	}
	return filePattern{prefix: strings.Join(append(parts, plural), "_")}, true
}

// cleanUp turns a merged object into output content (docs/reference-rules.md,
// "Cleanup"), in place.
func cleanUp(obj map[string]any) {
	delete(obj, "status")
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		return
	}
	delete(meta, "managedFields")
	delete(meta, "creationTimestamp")
	ann, _ := meta["annotations"].(map[string]any)
	for key := range ann {
		for _, prefix := range removedAnnotationPrefixes {
			if strings.HasPrefix(key, prefix) {
				delete(ann, key)
			}
		}
	}
	for _, key := range removedAnnotations {
		delete(ann, key)
	}
	for key := range ann {
		if strings.HasSuffix(key, "-") {
			delete(ann, key)
			delete(ann, strings.TrimSuffix(key, "-"))
		}
	}
	if ann != nil && len(ann) == 0 {
		delete(meta, "annotations")
	}
}

func annotationsOf(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	return ann
}

// deepCopy copies a generic JSON-like value, so that removing parts of
// the copy (fitErrors) leaves the original alone.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	default:
		return v
	}
}
