package manifestmerge

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Directory and file names of a version directory (SPEC §1.1).
const (
	FeatureGatedDirName = "zz_generated.featuregated-crd-manifests"
	OverridesDirName    = "manual-override-crd-manifests"
	OutputDirName       = "zz_generated.crd-manifests"
	DocFileName         = "doc.go"
	manifestExt         = ".yaml"
	outputExt           = ".crd.yaml"
)

// partialManifest is one input file of a CRD, read and checked once.
type partialManifest struct {
	// path is the absolute path, file the path shown in diagnostics.
	path, file string
	// name is the file's base name without ".yaml"; it orders files.
	name string
	// object is the parsed manifest, value its typed form.
	object map[string]any
	value  *typed.TypedValue
	// gates are the gates the manifest needs, sorted; empty when ungated.
	gates []string
	// restricted is set when the manifest names profiles; profiles then
	// holds the indices of those whose annotation is "true".
	restricted bool
	profiles   map[int]bool
	// versions holds the major versions the manifest is limited to; nil
	// means every version.
	versions map[int]bool
}

// crdInputs are the manifests of one CRD in application order.
type crdInputs struct {
	name string
	// dir is the CRD's featuregated directory, overridesDir its overrides
	// directory (which may not exist).
	dir, overridesDir string
	generated         []*partialManifest
	overrides         []*partialManifest
}

// inputReader reads the manifests of a version directory through the tree.
type inputReader struct {
	tree     *tree.Tree
	base     string
	crdType  typed.ParseableType
	problems *diag.List
}

func (r *inputReader) rel(p string) string { return tree.Rel(r.base, p) }

// subdirs lists the sub-directories of dir. Plain files are passed to
// onFile. A missing directory yields nothing.
func (r *inputReader) subdirs(dir string, onFile func(name string)) []string {
	entries, err := r.tree.ReadDir(dir)
	if err != nil {
		if isDir, _ := r.tree.Stat(dir); isDir {
			r.problems.Add(diag.Errorf(r.rel(dir), 0, "", "cannot list directory: %v", err))
		}
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir {
			out = append(out, e.Name)
		} else if onFile != nil {
			onFile(e.Name)
		}
	}
	return out
}

// readVersionDir reads every CRD of the featuregated directory of a
// version directory, with its overrides. ok is false when any manifest of
// the directory has an error.
func (r *inputReader) readVersionDir(versionDir string) (crds []*crdInputs, ok bool) {
	before := countErrors(r.problems)
	gatedDir := filepath.Join(versionDir, FeatureGatedDirName)
	overridesDir := filepath.Join(versionDir, OverridesDirName)
	names := r.subdirs(gatedDir, nil)
	overrideNames := r.subdirs(overridesDir, func(name string) {
		r.problems.Add(diag.Warningf(r.rel(filepath.Join(overridesDir, name)), 0, "", "ignored: overrides belong in a directory named after their CRD"))
	})
	known := map[string]bool{}
	for _, name := range names {
		known[name] = true
		crd := &crdInputs{name: name, dir: filepath.Join(gatedDir, name), overridesDir: filepath.Join(overridesDir, name)}
		crd.generated = r.readCRDDir(crd.dir, name)
		crd.overrides = r.readCRDDir(crd.overridesDir, name)
		if len(crd.generated) == 0 && countErrors(r.problems) == before {
			r.problems.Add(diag.Warningf(r.rel(filepath.Join(gatedDir, name)), 0, "", "contains no manifest; no CRD is produced"))
		}
		crds = append(crds, crd)
	}
	for _, name := range overrideNames {
		if !known[name] {
			r.problems.Add(diag.Warningf(r.rel(filepath.Join(overridesDir, name)), 0, "",
				"ignored: there is no %s/%s directory, so no CRD named %s is generated", FeatureGatedDirName, name, name))
		}
	}
	return crds, countErrors(r.problems) == before
}

// readCRDDir reads and orders the manifests of one CRD directory. A
// missing directory yields nothing.
func (r *inputReader) readCRDDir(dir, crdName string) []*partialManifest {
	entries, err := r.tree.ReadDir(dir)
	if err != nil {
		if isDir, _ := r.tree.Stat(dir); isDir {
			r.problems.Add(diag.Errorf(r.rel(dir), 0, "", "cannot list directory: %v", err))
		}
		return nil
	}
	var out []*partialManifest
	for _, e := range entries {
		p := filepath.Join(dir, e.Name)
		switch {
		case e.IsDir:
			r.problems.Add(diag.Errorf(r.rel(p), 0, "", "unexpected directory: a CRD directory holds only .yaml manifests"))
		case !strings.HasSuffix(e.Name, manifestExt):
			r.problems.Add(diag.Errorf(r.rel(p), 0, "", "unexpected file: a CRD directory holds only .yaml manifests"))
		default:
			if m := r.readManifest(p, crdName); m != nil {
				out = append(out, m)
			}
		}
	}
	sortForApplication(out)
	return out
}

// sortForApplication orders manifests as SPEC §5.4 recommends: ungated
// manifests first, then manifests needing one gate, then those needing
// more, fewer gates first; by file name within each group.
func sortForApplication(ms []*partialManifest) {
	sort.SliceStable(ms, func(i, j int) bool {
		if len(ms[i].gates) != len(ms[j].gates) {
			return len(ms[i].gates) < len(ms[j].gates)
		}
		return ms[i].name < ms[j].name
	})
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// readManifest parses and checks one manifest; it reports problems and
// returns nil when the file cannot take part in a merge.
func (r *inputReader) readManifest(path, crdName string) *partialManifest {
	file := r.rel(path)
	data, err := r.tree.ReadFile(path)
	if err != nil {
		r.problems.Add(diag.Errorf(file, 0, "", "cannot read: %v", err))
		return nil
	}
	if n := countDocuments(data); n > 1 {
		r.problems.Add(diag.Errorf(file, 0, "", "holds %d YAML documents; a manifest is exactly one CustomResourceDefinition", n))
		return nil
	}
	obj, err := manifest.Parse(data)
	if err != nil {
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		r.problems.Add(diag.Errorf(file, line, "", "invalid YAML: %v", err))
		return nil
	}
	if obj == nil {
		r.problems.Add(diag.Errorf(file, 0, "", "empty manifest"))
		return nil
	}
	bad := false
	check := func(key, want string) {
		if got, _ := obj[key].(string); got != want {
			r.problems.Add(diag.Errorf(file, 0, key, "is %q, expected %q", stringOf(obj[key]), want))
			bad = true
		}
	}
	check("apiVersion", crdAPIVersion)
	check("kind", crdKind)
	meta, _ := obj["metadata"].(map[string]any)
	for _, field := range []string{"annotations", "labels"} {
		values, _ := meta[field].(map[string]any)
		for _, key := range sortedKeys(values) {
			if _, ok := values[key].(string); !ok {
				r.problems.Add(diag.Errorf(file, 0, "metadata."+field+"."+key, "is %s, not a string; quote the value", valueText(values[key])))
				bad = true
			}
		}
	}
	if bad {
		return nil
	}
	if name, ok := meta["name"]; ok && name != crdName {
		r.problems.Add(diag.Errorf(file, 0, "metadata.name", "is %q but the manifest is in the directory of CRD %s", stringOf(name), crdName))
		bad = true
	}
	value, err := r.crdType.FromUnstructured(obj)
	if err != nil {
		r.problems.Add(diag.Errorf(file, 0, "", "does not fit the CustomResourceDefinition schema: %v", err))
		return nil
	}
	if bad {
		return nil
	}
	m := &partialManifest{
		path:   path,
		file:   file,
		name:   strings.TrimSuffix(filepath.Base(path), manifestExt),
		object: obj,
		value:  value,
	}
	annotations, _ := meta["annotations"].(map[string]any)
	ungated := false
	for _, key := range sortedKeys(annotations) {
		val, _ := annotations[key].(string)
		switch {
		case strings.HasPrefix(key, manifest.FeatureGateAnnotationPrefix):
			if gate := strings.TrimPrefix(key, manifest.FeatureGateAnnotationPrefix); gate != "" {
				m.gates = append(m.gates, gate)
			} else {
				ungated = true
			}
		case strings.HasPrefix(key, manifest.IncludeAnnotationPrefix):
			if m.profiles == nil {
				m.restricted, m.profiles = true, map[int]bool{}
			}
			p := profileIndex(key)
			if p < 0 {
				r.problems.Add(diag.Warningf(file, 0, "metadata.annotations."+key, "unknown cluster profile; known profiles are %s", knownProfiles()))
			} else if val == "true" {
				m.profiles[p] = true
			}
		case key == manifest.MajorVersionAnnotation:
			versions, err := parseVersionList(val)
			if err != nil {
				r.problems.Add(diag.Errorf(file, 0, "metadata.annotations."+key, "%v", err))
				return nil
			}
			m.versions = versions
		}
	}
	if ungated {
		// The empty gate name makes the manifest pertinent everywhere,
		// whatever other gates it names.
		m.gates = nil
	}
	return m
}

// countDocuments counts the documents of a YAML stream that hold more
// than comments.
func countDocuments(data []byte) int {
	n, content := 0, false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "---" || strings.HasPrefix(line, "--- ") {
			if content {
				n++
			}
			rest := strings.TrimSpace(strings.TrimPrefix(line, "---"))
			content = rest != "" && !strings.HasPrefix(rest, "#")
			continue
		}
		if t := strings.TrimSpace(line); t != "" && t != "..." && !strings.HasPrefix(t, "#") {
			content = true
		}
	}
	if content {
		n++
	}
	return n
}

// parseVersionList parses a major-version annotation: comma-separated
// integers.
func parseVersionList(s string) (map[int]bool, error) {
	out := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("%q is not a comma-separated list of major versions", s)
		}
		out[v] = true
	}
	return out, nil
}

func stringOf(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// valueText renders a YAML value in a message.
func valueText(v any) string {
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

func countErrors(l *diag.List) int {
	n := 0
	for _, d := range l.Items() {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n
}
