package payload

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// ParseManifest reads one payload FeatureGate file, JSON or YAML. fileName is
// used in errors and copied into the result.
//
// The profile is the single annotation whose value is
// "false-except-for-the-config-operator" (its key must belong to a rendered
// profile); the feature set is spec.featureSet ("" or absent means Default,
// and CustomNoUpgrade or unknown names are rejected); when the feature-set
// annotation is present it must agree. Without the major-version annotation
// the file is a legacy manifest: the result then only has FileName set and no
// error is returned, whatever else the file holds. Gate lists come from
// status.featureGates[0]; further entries are ignored.
func ParseManifest(fileName string, data []byte) (Manifest, error) {
	m, err := parseManifest(fileName, data)
	if err != nil {
		return Manifest{}, &FileError{FileName: fileName, Err: err}
	}
	return m, nil
}

// FileError is a problem with one payload file: its base name and what is
// wrong. ParseManifest, ReadDir and ReadFiles report malformed files as
// FileErrors (joined when there are several), so that callers can point at
// the file without parsing the text.
type FileError struct {
	FileName string
	Err      error
}

func (e *FileError) Error() string { return e.FileName + ": " + e.Err.Error() }

func (e *FileError) Unwrap() error { return e.Err }

// decodeFeatureGate decodes a payload file of either era: the object,
// which must be a FeatureGate, and its annotations.
func decodeFeatureGate(data []byte) (map[string]any, map[string]string, error) {
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		return nil, nil, fmt.Errorf("not valid JSON or YAML: %w", err)
	}
	if obj == nil {
		return nil, nil, errors.New("empty document")
	}
	if kind, _ := obj["kind"].(string); kind != "FeatureGate" {
		return nil, nil, fmt.Errorf("kind is %q, want FeatureGate", obj["kind"])
	}
	annotations, err := stringMap(obj, "metadata", "annotations")
	if err != nil {
		return nil, nil, err
	}
	return obj, annotations, nil
}

func parseManifest(fileName string, data []byte) (Manifest, error) {
	obj, annotations, err := decodeFeatureGate(data)
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{FileName: fileName}
	rawVersions, versioned := annotations[MajorVersionAnnotation]
	if !versioned {
		return m, nil
	}
	if m.Versions, err = ParseMajorVersions(rawVersions); err != nil {
		return Manifest{}, err
	}
	if m.ClusterProfile, err = profileFromAnnotations(annotations); err != nil {
		return Manifest{}, err
	}
	if m.FeatureSet, err = featureSetOf(obj, annotations); err != nil {
		return Manifest{}, err
	}
	if err := readStatus(obj, &m); err != nil {
		return Manifest{}, err
	}
	return m, nil
}

// lookup walks nested maps; a missing key yields nil, a non-map on the way is
// an error naming the path.
func lookup(obj map[string]any, path ...string) (any, error) {
	var cur any = obj
	for i, key := range path {
		if cur == nil {
			return nil, nil
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is not an object", strings.Join(path[:i], "."))
		}
		cur = m[key]
	}
	return cur, nil
}

func stringMap(obj map[string]any, path ...string) (map[string]string, error) {
	raw, err := lookup(obj, path...)
	if err != nil || raw == nil {
		return map[string]string{}, err
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", strings.Join(path, "."))
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%q] is not a string", strings.Join(path, "."), k)
		}
		out[k] = s
	}
	return out, nil
}

// ParseMajorVersions reads the value of a release.openshift.io/major-version
// annotation, in a payload FeatureGate manifest or a generated CRD: positive
// integers separated by commas, each at most once. The result is ascending.
func ParseMajorVersions(raw string) ([]int, error) {
	var versions []int
	for part := range strings.SplitSeq(raw, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("annotation %s=%q: %q is not a positive integer", MajorVersionAnnotation, raw, part)
		}
		versions = append(versions, v)
	}
	slices.Sort(versions)
	if len(slices.Compact(slices.Clone(versions))) != len(versions) {
		return nil, fmt.Errorf("annotation %s=%q lists a version twice", MajorVersionAnnotation, raw)
	}
	return versions, nil
}

func profileFromAnnotations(annotations map[string]string) (featuregate.ClusterProfileName, error) {
	var keys []string
	for k, v := range annotations {
		if v == ProfileAnnotationValue {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if len(keys) != 1 {
		return "", fmt.Errorf("want exactly one annotation with value %q identifying the cluster profile, found %d %v",
			ProfileAnnotationValue, len(keys), keys)
	}
	p, ok := featuregate.ClusterProfileForAnnotationKey(keys[0])
	if !ok || !p.IsRendered() {
		return "", fmt.Errorf("annotation %q does not identify a rendered cluster profile %v", keys[0], featuregate.ClusterProfiles())
	}
	return p, nil
}

func featureSetOf(obj map[string]any, annotations map[string]string) (featuregate.FeatureSetName, error) {
	raw, err := lookup(obj, "spec", "featureSet")
	if err != nil {
		return "", err
	}
	spec := ""
	if raw != nil {
		s, ok := raw.(string)
		if !ok {
			return "", errors.New("spec.featureSet is not a string")
		}
		spec = s
	}
	fs := featuregate.FeatureSetFromSpec(spec)
	if !fs.IsFixed() {
		return "", fmt.Errorf("spec.featureSet %q is not one of %v", spec, featuregate.FixedFeatureSets())
	}
	if a, ok := annotations[FeatureSetAnnotation]; ok && a != string(fs) {
		return "", fmt.Errorf("annotation %s=%q contradicts spec.featureSet %q", FeatureSetAnnotation, a, spec)
	}
	return fs, nil
}

func readStatus(obj map[string]any, m *Manifest) error {
	raw, err := lookup(obj, "status", "featureGates")
	if err != nil {
		return err
	}
	list, _ := raw.([]any)
	if len(list) == 0 {
		return errors.New("status.featureGates has no entry")
	}
	entry, ok := list[0].(map[string]any)
	if !ok {
		return errors.New("status.featureGates[0] is not an object")
	}
	if v, ok := entry["version"]; ok && v != nil {
		if m.PayloadVersion, ok = v.(string); !ok {
			return errors.New("status.featureGates[0].version is not a string")
		}
	}
	if m.Enabled, err = gateNames(entry, "enabled"); err != nil {
		return err
	}
	if m.Disabled, err = gateNames(entry, "disabled"); err != nil {
		return err
	}
	for _, n := range m.Enabled {
		if _, both := slices.BinarySearch(m.Disabled, n); both {
			return fmt.Errorf("gate %q is both enabled and disabled", n)
		}
	}
	return nil
}

// gateNames reads [{"name": ...}] (null reads as empty) and returns the names
// sorted.
func gateNames(entry map[string]any, field string) ([]featuregate.FeatureGateName, error) {
	where := "status.featureGates[0]." + field
	raw := entry[field]
	if raw == nil {
		return []featuregate.FeatureGateName{}, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", where)
	}
	names := make([]featuregate.FeatureGateName, 0, len(list))
	for i, item := range list {
		obj, _ := item.(map[string]any)
		name, _ := obj["name"].(string)
		if name == "" {
			return nil, fmt.Errorf("%s[%d] has no name", where, i)
		}
		names = append(names, featuregate.FeatureGateName(name))
	}
	slices.Sort(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return nil, fmt.Errorf("%s lists %q twice", where, names[i])
		}
	}
	return names, nil
}
