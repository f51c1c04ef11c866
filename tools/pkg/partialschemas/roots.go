package partialschemas

import (
	"go/ast"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
)

// Marker names of upstream controller-tools that stage 1 reads or warns
// about.
const (
	resourceName          = "kubebuilder:resource"
	statusName            = "kubebuilder:subresource:status"
	printColumnName       = "kubebuilder:printcolumn"
	metadataName          = "kubebuilder:metadata"
	scaleName             = "kubebuilder:subresource:scale"
	storageVersionName    = "kubebuilder:storageversion"
	deprecatedVersionName = "kubebuilder:deprecatedversion"
	skipVersionName       = "kubebuilder:skipversion"
	unservedVersionName   = "kubebuilder:unservedversion"
	selectableFieldName   = "kubebuilder:selectablefield"
)

// unsupported lists the root-type markers stage 1 ignores, with the advice
// its warning gives.
var unsupported = []struct{ name, advice string }{
	{scaleName, "the partial manifests get no scale subresource; add it with a manual override in manual-override-crd-manifests/<crd>/"},
	{storageVersionName, "every partial manifest has exactly one version, which is served and the storage version"},
	{deprecatedVersionName, "every partial manifest has exactly one version and it is never marked deprecated"},
	{skipVersionName, "every root type of a processed package produces its version"},
	{unservedVersionName, "every partial manifest has exactly one version, which is served and the storage version"},
	{selectableFieldName, "the partial manifests get no selectable fields; add them with a manual override in manual-override-crd-manifests/<crd>/"},
}

var (
	pluralPattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	groupPattern  = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// rootTypes returns the package's CRD root types in source order: the
// types whose +kubebuilder:object:root marker is true. ok is false when a
// type carries conflicting values.
func (r *run) rootTypes(idx *pkgIndex) ([]*ast.TypeSpec, bool) {
	var roots []*ast.TypeSpec
	ok := true
	for _, spec := range idx.specs {
		vals := idx.markersOf(r, spec, markerdefs.ObjectRootName, markers.DescribesType)
		if len(vals) == 0 {
			continue
		}
		first := vals[0].Value.(bool)
		for _, v := range vals[1:] {
			if v.Value.(bool) != first {
				file, line := r.position(v.Pos)
				r.problems.Add(diag.Errorf(file, line, v.Text, "contradicts %s on type %s", vals[0].Text, spec.Name.Name))
				ok = false
			}
		}
		if first {
			roots = append(roots, spec)
		}
	}
	return r.withoutListTypes(idx, roots), ok
}

// withoutListTypes drops kubebuilder-style list types from roots. Operator
// repositories scaffolded by kubebuilder mark FooList with
// +kubebuilder:object:root=true too (for the deepcopy generator); such a
// type is not a CRD. A root type counts as a list type when it has no
// +kubebuilder:resource marker, its name ends in "List", and it has an Items
// field that is a slice of another root type of the package.
func (r *run) withoutListTypes(idx *pkgIndex, roots []*ast.TypeSpec) []*ast.TypeSpec {
	names := map[string]bool{}
	for _, spec := range roots {
		names[spec.Name.Name] = true
	}
	isList := func(spec *ast.TypeSpec) bool {
		if !strings.HasSuffix(spec.Name.Name, "List") || len(idx.markersOf(r, spec, resourceName, markers.DescribesType)) > 0 {
			return false
		}
		st, ok := spec.Type.(*ast.StructType)
		if !ok {
			return false
		}
		for _, f := range st.Fields.List {
			if len(f.Names) != 1 || f.Names[0].Name != "Items" {
				continue
			}
			arr, ok := f.Type.(*ast.ArrayType)
			if !ok || arr.Len != nil {
				return false
			}
			elt, ok := arr.Elt.(*ast.Ident)
			return ok && elt.Name != spec.Name.Name && names[elt.Name]
		}
		return false
	}
	out := roots[:0:0]
	for _, spec := range roots {
		if !isList(spec) {
			out = append(out, spec)
		}
	}
	return out
}

// crd reads the markers of one root type, walks its types for gates and
// returns the CRD. Problems found are reported; any error marks the CRD
// failed.
func (r *run) crd(vr *VersionResult, idx *pkgIndex, spec *ast.TypeSpec) *CRD {
	file, line := r.position(spec.Name.Pos())
	kind := spec.Name.Name
	crd := &CRD{
		Kind:     kind,
		ListKind: kind + "List",
		Singular: strings.ToLower(kind),
		Group:    vr.Version.GroupNameMarker,
		Version:  vr.Name,
		File:     file,
		Line:     line,
	}
	subject := "type " + kind
	values := func(name string) []markerValue { return idx.markersOf(r, spec, name, markers.DescribesType) }
	errorAt := func(v markerValue, format string, args ...any) {
		f, l := r.position(v.Pos)
		r.problems.Add(diag.Errorf(f, l, v.Text, format, args...))
	}
	warnAt := func(v markerValue, format string, args ...any) {
		f, l := r.position(v.Pos)
		r.problems.Add(diag.Warningf(f, l, v.Text, format, args...))
	}
	// ignoredAt reports a marker stage 1 cannot honour: an error in strict
	// mode, because the user's intent would silently not ship.
	ignoredAt := func(v markerValue, format string, args ...any) {
		if r.strict {
			f, l := r.position(v.Pos)
			d := diag.Errorf(f, l, v.Text, format+" (an error because the repository opted in to strict markers)", args...)
			d.Strict = true // a strict baseline may accept it
			r.problems.Add(d)
		} else {
			warnAt(v, format, args...)
		}
	}
	// single returns the only value of a marker that may appear once.
	single := func(name string) (markerValue, bool) {
		vals := values(name)
		for _, v := range vals[min(1, len(vals)):] {
			_, firstLine := r.position(vals[0].Pos)
			errorAt(v, "may be given only once on a root type (first given on line %d)", firstLine)
		}
		if len(vals) != 1 {
			return markerValue{}, false
		}
		return vals[0], true
	}

	if !groupPattern.MatchString(crd.Group) {
		r.problems.Add(diag.Errorf(r.rel(vr.Version.DocFile), vr.Version.DocLines["+groupName"], "+groupName="+crd.Group,
			"is not a valid API group name (lower-case DNS subdomain)"))
	}
	resources := values(resourceName)
	switch {
	case len(resources) == 0:
		r.problems.Add(diag.Errorf(file, line, subject,
			"is a CRD root type (+%s=true) but has no +%s:path=<plural>,scope=<Cluster|Namespaced> marker", markerdefs.ObjectRootName, resourceName))
	case len(resources) > 1:
		single(resourceName)
	default:
		res := resources[0].Value.(crdmarkers.Resource)
		if raw := rawArguments(resources[0].Text, resourceName); raw["path"] == "" && strings.Contains(resources[0].Text, "path=") {
			// controller-tools reads an empty value as the rest of the
			// line ("path=,scope=Cluster" gives path ",scope=Cluster"):
			// report the empty path and take the scope as written.
			res.Path, res.Scope = "", raw["scope"]
		}
		if res.Path == "" {
			errorAt(resources[0], "path=<plural> is missing")
		} else if !pluralPattern.MatchString(res.Path) {
			errorAt(resources[0], "path %q is not a valid plural resource name (lower-case letters, digits and '-')", res.Path)
		} else {
			crd.Plural = res.Path
			crd.Name = res.Path + "." + crd.Group
		}
		switch res.Scope {
		case "":
			errorAt(resources[0], "scope is missing: give scope=Cluster or scope=Namespaced")
		case "Cluster", "Namespaced":
			crd.Scope = res.Scope
		default:
			errorAt(resources[0], "scope %q is not valid: give scope=Cluster or scope=Namespaced", res.Scope)
		}
		crd.ShortNames = res.ShortName
		crd.Categories = res.Categories
		if res.Singular != "" && res.Singular != crd.Singular {
			ignoredAt(resources[0], "singular=%s is not supported by stage 1 and is ignored: the singular name is always the lower-cased kind %q", res.Singular, crd.Singular)
		}
	}
	crd.HasStatus = len(values(statusName)) > 0
	for _, v := range values(printColumnName) {
		pc := v.Value.(crdmarkers.PrintColumn)
		if pc.Format != "" {
			ignoredAt(v, "format=%s is not supported by stage 1 and is ignored", pc.Format)
		}
		crd.PrinterColumns = append(crd.PrinterColumns, apiextensionsv1.CustomResourceColumnDefinition{
			Name: pc.Name, Type: pc.Type, JSONPath: pc.JSONPath, Description: pc.Description, Priority: pc.Priority,
		})
	}
	if v, ok := single(markerdefs.ApprovedName); ok {
		crd.Approved = string(v.Value.(markerdefs.RawValue))
	}
	if v, ok := single(markerdefs.CapabilityName); ok {
		crd.Capability = string(v.Value.(markerdefs.RawValue))
	}
	if v, ok := single(markerdefs.FilePatternName); ok {
		crd.FilePattern = v.Value.(markerdefs.FilePattern)
	}
	derived := crd.derivedAnnotations()
	for _, v := range values(metadataName) {
		md := v.Value.(crdmarkers.Metadata)
		for _, kv := range md.Annotations {
			key, value, ok := r.keyValue(v, "annotations", kv)
			if !ok {
				continue
			}
			if strings.HasPrefix(key, manifest.FeatureGateAnnotationPrefix) {
				errorAt(v, "annotation %s uses the prefix %s, which stage 1 sets on each partial manifest from its gates", key, manifest.FeatureGateAnnotationPrefix)
				continue
			}
			if old, ok := derived[key]; ok && old != value {
				warnAt(v, "annotation %s=%s overrides the value %q derived from the other markers", key, value, old)
			}
			if crd.MetadataAnnotations == nil {
				crd.MetadataAnnotations = map[string]string{}
			}
			crd.MetadataAnnotations[key] = value
		}
		for _, kv := range md.Labels {
			key, value, ok := r.keyValue(v, "labels", kv)
			if !ok {
				continue
			}
			if crd.Labels == nil {
				crd.Labels = map[string]string{}
			}
			crd.Labels[key] = value
		}
	}
	for _, u := range unsupported {
		for _, v := range values(u.name) {
			ignoredAt(v, "is not supported by stage 1 and is ignored: %s", u.advice)
		}
	}

	w := r.newWalker(crd)
	w.walkRoot(idx, spec)
	crd.Gates, crd.TopLevelGates = w.gates()

	if crd.Name != "" {
		crd.Dir = filepath.Join(vr.ManifestsDir, crd.Name)
		entries := crd.Gates
		if len(crd.TopLevelGates) == 0 {
			entries = append([]string{markerdefs.Ungated}, entries...)
		}
		for _, e := range entries {
			crd.Manifests = append(crd.Manifests, &PartialManifest{
				Entry:     e,
				GateNames: splitEntry(e),
				Path:      filepath.Join(crd.Dir, FileName(e)),
			})
		}
	}
	crd.Failed = r.problems.HasErrors() || w.failed || crd.Name == ""
	return crd
}

// crdWithOwnProblems runs crd on a copy of r whose problems list holds the
// CRD's problems only, so that an error of one CRD fails that CRD and not
// its siblings, and returns them for the caller to add in CRD order.
func (r *run) crdWithOwnProblems(vr *VersionResult, idx *pkgIndex, spec *ast.TypeSpec) (*CRD, []diag.Diagnostic) {
	own := *r
	own.problems = &diag.List{}
	crd := own.crd(vr, idx, spec)
	return crd, own.problems.Items()
}

// keyValue splits one "<key>=<value>" item of a +kubebuilder:metadata
// argument.
func (r *run) keyValue(v markerValue, arg, item string) (string, string, bool) {
	key, value, ok := strings.Cut(item, "=")
	if !ok || key == "" {
		f, l := r.position(v.Pos)
		r.problems.Add(diag.Errorf(f, l, v.Text, "%s item %q is not of the form \"<key>=<value>\"", arg, item))
		return "", "", false
	}
	return key, value, true
}

// derivedAnnotations returns the annotations the openshift markers give
// every partial manifest of the CRD, before +kubebuilder:metadata.
func (c *CRD) derivedAnnotations() map[string]string {
	out := map[string]string{}
	if c.Approved != "" {
		out[manifest.ApprovedAnnotation] = c.Approved
	}
	if c.FilePattern.CVORunLevel != "" {
		out[manifest.FilenameRunLevelAnnotation] = c.FilePattern.CVORunLevel
	}
	if c.FilePattern.OperatorName != "" {
		out[manifest.FilenameOperatorAnnotation] = c.FilePattern.OperatorName
	}
	if c.FilePattern.OperatorOrdering != "" {
		out[manifest.FilenameOrderingAnnotation] = c.FilePattern.OperatorOrdering
	}
	if c.Capability != "" {
		out[manifest.CapabilityAnnotation] = c.Capability
	}
	return out
}

// Annotations returns the annotations of every partial manifest of the
// CRD except the gate annotations: the derived ones, then the
// +kubebuilder:metadata ones, which win.
func (c *CRD) Annotations() map[string]string {
	out := c.derivedAnnotations()
	for k, v := range c.MetadataAnnotations {
		out[k] = v
	}
	return out
}

// lineOf renders pos as file:line, for messages that point at another
// marker.
func (r *run) lineOf(pos token.Pos) string {
	f, l := r.position(pos)
	return diag.Position{File: f, Line: l}.String()
}
