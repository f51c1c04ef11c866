package manifestmerge

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/suggest"

	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// Directory and file names of a version directory (docs/reference-rules.md,
// "File names and layout").
const (
	FeatureGatedDirName = manifest.PartialManifestsDirName
	OverridesDirName    = manifest.OverridesDirName
	OutputDirName       = manifest.MergedManifestsDirName
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
	// value is the parsed manifest, typed with the pipeline's CRD schema.
	value *typed.TypedValue
	// gates are the gates the manifest needs, sorted; empty when ungated.
	gates []string
	// restricted is set when the manifest names profiles; profiles then
	// holds the indices of those whose annotation is "true".
	restricted bool
	profiles   map[int]bool
	// versions holds the major versions the manifest is limited to; nil
	// means every version.
	versions map[int]bool
	// plain caches the unstructured form of value (see unstructured).
	plain any
	// sites caches the lists of droppedListKeys in plain (see listSites).
	sites []listSite
}

// unstructured returns the manifest as generic maps and lists, computed
// once. A CRD's manifests are only used by the goroutine merging that CRD.
func (pm *partialManifest) unstructured() any {
	if pm.plain == nil && pm.value != nil {
		pm.plain = pm.value.AsValue().Unstructured()
	}
	return pm.plain
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

// reporter adds diagnostics to the run's list for one unit of work (a
// version directory, a CRD) and remembers whether one was an error, so
// the unit knows it failed without inspecting the shared list.
type reporter struct {
	list   *diag.List
	failed bool
}

func (r *reporter) add(d diag.Diagnostic) {
	if d.Severity == diag.Error {
		r.failed = true
	}
	r.list.Add(d)
}

func (r *reporter) addError(err error) {
	r.failed = true
	r.list.AddError(err)
}

// inputReader reads manifests through the tree, or takes those stage 2
// handed over.
type inputReader struct {
	tree    *tree.Tree
	files   *manifest.Reader
	base    string
	crdType typed.ParseableType
	// rules are the rules of the era the stage follows.
	rules *eraRules
	// knownGates are the gates the payload FeatureGate manifests list.
	knownGates map[string]bool
}

func (r *inputReader) rel(p string) string { return tree.Rel(r.base, p) }

// list lists dir; a missing directory yields nothing.
func (r *inputReader) list(dir string, rep *reporter) []tree.Entry {
	entries, err := r.tree.ReadDir(dir)
	if err != nil {
		if isDir, _ := r.tree.Stat(dir); isDir {
			rep.add(diag.Errorf(r.rel(dir), 0, "", "cannot list directory: %v", err))
		}
		return nil
	}
	return entries
}

// crdsOf lists the CRDs of a version directory: the sub-directories of its
// featuregated directory (plain files there are ignored). Override
// directories and files that match no CRD are reported.
func (r *inputReader) crdsOf(versionDir string, rep *reporter) []*crdInputs {
	gatedDir := filepath.Join(versionDir, FeatureGatedDirName)
	overridesDir := filepath.Join(versionDir, OverridesDirName)
	var crds []*crdInputs
	known := map[string]bool{}
	for _, e := range r.list(gatedDir, rep) {
		if e.IsDir {
			known[e.Name] = true
			crds = append(crds, &crdInputs{name: e.Name, dir: filepath.Join(gatedDir, e.Name), overridesDir: filepath.Join(overridesDir, e.Name)})
		}
	}
	for _, e := range r.list(overridesDir, rep) {
		p := r.rel(filepath.Join(overridesDir, e.Name))
		switch {
		case !e.IsDir:
			rep.add(diag.Warningf(p, 0, "", "ignored: overrides belong in a directory named after their CRD"))
		case !known[e.Name]:
			rep.add(diag.Warningf(p, 0, "", "ignored: there is no %s/%s directory, so no CRD named %s is generated", FeatureGatedDirName, e.Name, e.Name))
		}
	}
	return crds
}

// read reads and orders the generated manifests and overrides of a CRD.
func (r *inputReader) read(c *crdInputs, rep *reporter) {
	c.generated = r.readCRDDir(c.dir, c.name, rep)
	c.overrides = r.readCRDDir(c.overridesDir, c.name, rep)
	if len(c.generated) == 0 && !rep.failed {
		rep.add(diag.Warningf(r.rel(c.dir), 0, "", "contains no manifest; no CRD is produced"))
	}
}

// readCRDDir reads and orders the manifests of one CRD directory. A
// missing directory yields nothing.
func (r *inputReader) readCRDDir(dir, crdName string, rep *reporter) []*partialManifest {
	var out []*partialManifest
	for _, e := range r.list(dir, rep) {
		p := filepath.Join(dir, e.Name)
		switch {
		case e.IsDir:
			rep.add(diag.Errorf(r.rel(p), 0, "", "unexpected directory: a CRD directory holds only .yaml manifests"))
		case !strings.HasSuffix(e.Name, manifestExt):
			rep.add(diag.Errorf(r.rel(p), 0, "", "unexpected file: a CRD directory holds only .yaml manifests"))
		default:
			if m := r.readManifest(p, crdName, rep); m != nil {
				out = append(out, m)
			}
		}
	}
	r.rules.order(out)
	return out
}

// sortForApplication orders manifests in the versioned eras: ungated
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
func (r *inputReader) readManifest(path, crdName string, rep *reporter) *partialManifest {
	file := r.rel(path)
	f, err := r.files.Read(path)
	if err != nil {
		rep.add(diag.Errorf(file, 0, "", "cannot read: %v", err))
		return nil
	}
	if _, handed := r.files.Handed(path); !handed {
		if n := manifest.CountDocuments(f.Data); n > 1 {
			rep.add(diag.Errorf(file, 0, "", "holds %d YAML documents; a manifest is exactly one CustomResourceDefinition", n))
			return nil
		}
	}
	obj, err := f.Object, f.ParseErr
	if err != nil {
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		rep.add(diag.Errorf(file, line, "", "invalid YAML: %v", err))
		return nil
	}
	if obj == nil {
		rep.add(diag.Errorf(file, 0, "", "empty manifest"))
		return nil
	}
	bad := false
	check := func(key, want string) {
		if got, _ := obj[key].(string); got != want {
			rep.add(diag.Errorf(file, 0, key, "is %q, expected %q", stringOf(obj[key]), want))
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
				rep.add(diag.Errorf(file, 0, "metadata."+field+"."+key, "is %s, not a string; quote the value", valueText(values[key])))
				bad = true
			}
		}
	}
	if bad {
		return nil
	}
	if name, ok := meta["name"]; ok && name != crdName {
		rep.add(diag.Errorf(file, 0, "metadata.name", "is %q but the manifest is in the directory of CRD %s", stringOf(name), crdName))
		bad = true
	}
	value, problems := fitErrors(r.crdType, obj)
	if len(problems) > 0 {
		rep.add(diag.Errorf(file, 0, "", "does not fit the CustomResourceDefinition schema: %s", strings.Join(problems, "; ")))
		return nil
	}
	if bad {
		return nil
	}
	m := &partialManifest{
		path:  path,
		file:  file,
		name:  strings.TrimSuffix(filepath.Base(path), manifestExt),
		value: value,
	}
	annotations, _ := meta["annotations"].(map[string]any)
	ungated := false
	for _, key := range sortedKeys(annotations) {
		val, _ := annotations[key].(string)
		switch {
		case strings.HasPrefix(key, manifest.FeatureGateAnnotationPrefix):
			if gate := strings.TrimPrefix(key, manifest.FeatureGateAnnotationPrefix); gate != "" {
				m.gates = append(m.gates, gate)
				if len(r.knownGates) > 0 && !r.knownGates[gate] {
					rep.add(diag.Warningf(file, 0, "metadata.annotations."+key,
						"FeatureGate %q is not listed in the payload FeatureGate manifests, so this manifest only ever applies in CustomNoUpgrade%s", gate, closestGates(gate, r.knownGates)))
				}
			} else {
				ungated = true
			}
		case strings.HasPrefix(key, manifest.IncludeAnnotationPrefix):
			if m.profiles == nil {
				m.restricted, m.profiles = true, map[int]bool{}
			}
			p := profileIndex(key)
			if p < 0 {
				rep.add(diag.Warningf(file, 0, "metadata.annotations."+key, "unknown cluster profile; known profiles are %s", knownProfiles()))
			} else if val == "true" {
				m.profiles[p] = true
			}
		case key == manifest.MajorVersionAnnotation:
			versions, err := parseVersionList(val)
			if err != nil {
				rep.add(diag.Errorf(file, 0, "metadata.annotations."+key, "%v", err))
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

// closestGates renders the known gates nearest to gate as a hint.
func closestGates(gate string, known map[string]bool) string {
	best, bestDistance := "", len(gate)/2+2
	for k := range known {
		d := suggest.Distance(strings.ToLower(gate), strings.ToLower(k))
		if d < bestDistance || d == bestDistance && k < best {
			best, bestDistance = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %s?", best)
}
