package partialschemas

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/workers"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// Object returns the partial manifest of the CRD for one gate entry as a
// typed object, without schema (docs/reference-rules.md, "Partial manifest
// content").
func (c *CRD) Object(entry string) *apiextensionsv1.CustomResourceDefinition {
	annotations := c.Annotations()
	for _, gate := range splitEntry(entry) {
		annotations[manifest.FeatureGateAnnotationPrefix+gate] = "true"
	}
	var labels map[string]string
	if len(c.Labels) > 0 {
		labels = map[string]string{}
		for k, v := range c.Labels {
			labels[k] = v
		}
	}
	version := apiextensionsv1.CustomResourceDefinitionVersion{
		Name:                     c.Version,
		Served:                   true,
		Storage:                  true,
		AdditionalPrinterColumns: append([]apiextensionsv1.CustomResourceColumnDefinition(nil), c.PrinterColumns...),
	}
	if c.HasStatus {
		version.Subresources = &apiextensionsv1.CustomResourceSubresources{
			Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
		}
	}
	return &apiextensionsv1.CustomResourceDefinition{
		TypeMeta: metav1.TypeMeta{
			APIVersion: apiextensionsv1.SchemeGroupVersion.String(),
			Kind:       "CustomResourceDefinition",
		},
		ObjectMeta: metav1.ObjectMeta{
			Name:        c.Name,
			Annotations: annotations,
			Labels:      labels,
		},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: c.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural:     c.Plural,
				Singular:   c.Singular,
				ShortNames: append([]string(nil), c.ShortNames...),
				Kind:       c.Kind,
				ListKind:   c.ListKind,
				Categories: append([]string(nil), c.Categories...),
			},
			Scope:    apiextensionsv1.ResourceScope(c.Scope),
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{version},
		},
	}
}

// MarshalObject serialises a partial manifest the way stage 1 writes it:
// the generic form of obj without status and creationTimestamp, marshalled
// with manifest.Marshal.
func MarshalObject(obj *apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	_, data, err := marshalObject(obj)
	return data, err
}

// marshalObject is MarshalObject that also returns the generic form it
// serialised: a JSON round trip of obj, so exactly what manifest.Parse
// returns for the bytes.
func marshalObject(obj *apiextensionsv1.CustomResourceDefinition) (map[string]any, []byte, error) {
	m, err := manifest.ToMap(obj)
	if err != nil {
		return nil, nil, err
	}
	delete(m, "status")
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	data, err := manifest.Marshal(m)
	return m, data, err
}

// sameIgnoringSchema reports whether m (a partial manifest on disk, as
// manifest.Parse returns it) describes want once the schema of its single
// version is removed, using Kubernetes semantic equality (nil equals
// empty). Anything that keeps the file from matching (no or several
// versions, fields a CRD does not have) makes it differ. m is left as it
// is, schema included, so that stage 2 need not parse the file again.
func sameIgnoringSchema(m map[string]any, want *apiextensionsv1.CustomResourceDefinition) bool {
	spec, _ := m["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	if len(versions) != 1 {
		return false
	}
	data, err := jsonWithoutSchema(m, versions[0])
	if err != nil {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var got apiextensionsv1.CustomResourceDefinition
	if err := dec.Decode(&got); err != nil {
		return false
	}
	return equality.Semantic.DeepEqual(&got, want)
}

// jsonWithoutSchema marshals m as JSON without the schema of its version
// entry, which is restored afterwards: m is handed on unchanged.
func jsonWithoutSchema(m map[string]any, version any) ([]byte, error) {
	if v, ok := version.(map[string]any); ok {
		if schema, had := v["schema"]; had {
			delete(v, "schema")
			defer func() { v["schema"] = schema }()
		}
	}
	return json.Marshal(m)
}

// crdPlan is what the write policy (an unchanged manifest is left alone
// so that its schema survives) decided for the directory
// of a CRD, before anything is written: the problems that stop the CRD,
// the manifests found unchanged and those to write, and the stray entries
// to remove.
type crdPlan struct {
	problems  []diag.Diagnostic
	unchanged []plannedFile
	writes    []plannedFile
	stray     []string
}

// plannedFile is a partial manifest with its bytes and their parse.
type plannedFile struct {
	m    *PartialManifest
	data []byte
	obj  map[string]any
}

// writeCRD applies the write policy to every partial manifest of crd and
// removes the other entries of its directory, as planCRD planned (now, or
// while the CRD was read). A sub-directory in the CRD directory, an
// unreadable or unparsable existing file stop the CRD: nothing is written
// for it.
func (r *run) writeCRD(crd *CRD) {
	p := crd.plan
	if p == nil {
		p = r.planCRD(crd)
	}
	crd.plan = nil
	for _, u := range p.unchanged {
		u.m.Action, u.m.Data, u.m.Object = Unchanged, u.data, u.obj
	}
	for _, d := range p.problems {
		r.fail(crd, d)
	}
	if crd.Failed {
		return
	}
	for _, w := range p.writes {
		r.t.WriteFile(w.m.Path, w.data)
		w.m.Action, w.m.Data, w.m.Object = Written, w.data, w.obj
	}
	for _, path := range p.stray {
		r.t.Remove(path)
	}
}

// planCRD reads the directory of crd and compares each partial manifest
// with the existing file, on every core; it writes nothing. A manifest
// found unchanged takes the existing file's bytes and parse.
func (r *run) planCRD(crd *CRD) *crdPlan {
	p := &crdPlan{}
	expected := map[string]bool{}
	for _, m := range crd.Manifests {
		expected[filepath.Base(m.Path)] = true
	}
	entries, err := r.t.ReadDir(crd.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		p.problems = append(p.problems, diag.Errorf(r.rel(crd.Dir), 0, "", "cannot list the CRD directory: %v", err))
		return p
	}
	for _, e := range entries {
		switch {
		case e.IsDir:
			p.problems = append(p.problems, diag.Errorf(r.rel(filepath.Join(crd.Dir, e.Name)), 0, "",
				"is a directory inside the partial manifests of CRD %s, which hold only generated files: remove it", crd.Name))
		case !expected[e.Name]:
			p.stray = append(p.stray, filepath.Join(crd.Dir, e.Name))
		}
	}
	decided := make([]plannedManifest, len(crd.Manifests))
	workers.Each(len(crd.Manifests), func(i int) { decided[i] = r.planManifest(crd, crd.Manifests[i]) })
	for _, d := range decided {
		switch {
		case d.problem != nil:
			p.problems = append(p.problems, *d.problem)
		case d.unchanged:
			p.unchanged = append(p.unchanged, d.file)
		default:
			p.writes = append(p.writes, d.file)
		}
	}
	return p
}

// plannedManifest is what the write policy decided for one partial
// manifest: leave the existing file (unchanged), write file, or nothing
// for a problem.
type plannedManifest struct {
	file      plannedFile
	unchanged bool
	problem   *diag.Diagnostic
}

// planManifest compares one partial manifest with the existing file.
func (r *run) planManifest(crd *CRD, m *PartialManifest) plannedManifest {
	obj := crd.Object(m.Entry)
	old := r.existing.get(m.Path)
	problem := func(format string, err error) plannedManifest {
		d := diag.Errorf(r.rel(m.Path), 0, "", format, err)
		return plannedManifest{problem: &d}
	}
	switch err := old.readErr; {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return problem("cannot read the existing partial manifest: %v", err)
	case old.parseErr != nil:
		return problem("the existing partial manifest is not valid YAML (fix or delete it): %v", old.parseErr)
	case old.obj != nil && sameIgnoringSchema(old.obj, obj):
		return plannedManifest{file: plannedFile{m, old.data, old.obj}, unchanged: true}
	}
	generic, data, err := marshalObject(obj)
	if err != nil {
		return problem("cannot serialise the partial manifest: %v", err)
	}
	return plannedManifest{file: plannedFile{m, data, generic}}
}

// fail reports d and marks the CRD (and so its version) failed.
func (r *run) fail(crd *CRD, d diag.Diagnostic) {
	r.problems.Add(d)
	crd.Failed = true
}

// removeStaleDirs removes the CRD directories of the version's manifests
// directory that belong to no current CRD, provided they look generated
// (only .yaml files); others are reported. Loose files are warned about
// and left alone.
func (r *run) removeStaleDirs(vr *VersionResult) {
	current := map[string]bool{}
	for _, crd := range vr.CRDs {
		current[crd.Name] = true
	}
	entries, err := r.t.ReadDir(vr.ManifestsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		r.problems.Add(diag.Errorf(r.rel(vr.ManifestsDir), 0, "", "cannot list: %v", err))
		vr.Failed = true
		return
	}
	for _, e := range entries {
		path := filepath.Join(vr.ManifestsDir, e.Name)
		if !e.IsDir {
			r.problems.Add(diag.Warningf(r.rel(path), 0, "", "is not a CRD directory; stage 1 leaves it alone, but it does not belong in %s", ManifestsDirName))
			continue
		}
		if current[e.Name] {
			continue
		}
		inner, err := r.t.ReadDir(path)
		if err != nil {
			r.problems.Add(diag.Errorf(r.rel(path), 0, "", "cannot list: %v", err))
			vr.Failed = true
			continue
		}
		var foreign []string
		for _, in := range inner {
			if in.IsDir || !strings.HasSuffix(in.Name, ".yaml") {
				foreign = append(foreign, in.Name)
			}
		}
		if len(foreign) > 0 {
			r.problems.Add(diag.Errorf(r.rel(path), 0, "",
				"belongs to no CRD of package %s and holds entries stage 1 never writes (%s): remove the directory by hand",
				vr.Version.ImportPath, strings.Join(foreign, ", ")))
			vr.Failed = true
			continue
		}
		r.t.RemoveAll(path)
	}
}

// summaryEntry is the information the summary file records per CRD. The
// field names are the file's keys.
type summaryEntry struct {
	Annotations              map[string]string
	ApprovedPRNumber         string
	CRDName                  string
	Capability               string
	Category                 string
	FeatureGates             []string
	FilenameOperatorName     string
	FilenameOperatorOrdering string
	FilenameRunLevel         string
	GroupName                string
	HasStatus                bool
	KindName                 string
	Labels                   map[string]string
	PluralName               string
	PrinterColumns           []apiextensionsv1.CustomResourceColumnDefinition
	Scope                    string
	ShortNames               []string
	TopLevelFeatureGates     []string
	Version                  string
}

func (c *CRD) summaryEntry() summaryEntry {
	nonNilMap := func(m map[string]string) map[string]string {
		if m == nil {
			return map[string]string{}
		}
		return m
	}
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	columns := c.PrinterColumns
	if columns == nil {
		columns = []apiextensionsv1.CustomResourceColumnDefinition{}
	}
	var shortNames []string
	if len(c.ShortNames) > 0 {
		shortNames = c.ShortNames
	}
	return summaryEntry{
		Annotations:              nonNilMap(c.MetadataAnnotations),
		ApprovedPRNumber:         c.Approved,
		CRDName:                  c.Name,
		Capability:               c.Capability,
		Category:                 strings.Join(c.Categories, ";"),
		FeatureGates:             nonNil(c.Gates),
		FilenameOperatorName:     c.FilePattern.OperatorName,
		FilenameOperatorOrdering: c.FilePattern.OperatorOrdering,
		FilenameRunLevel:         c.FilePattern.CVORunLevel,
		GroupName:                c.Group,
		HasStatus:                c.HasStatus,
		KindName:                 c.Kind,
		Labels:                   nonNilMap(c.Labels),
		PluralName:               c.Plural,
		PrinterColumns:           columns,
		Scope:                    c.Scope,
		ShortNames:               shortNames,
		TopLevelFeatureGates:     nonNil(c.TopLevelGates),
		Version:                  c.Version,
	}
}

// Summary returns the bytes of the version's summary file: one
// single-key document per CRD in Go type name order, each followed by an
// empty line; no bytes at all when the package has no root types.
func (vr *VersionResult) Summary() ([]byte, error) {
	var buf bytes.Buffer
	for _, crd := range vr.CRDs {
		// The entry goes in as its generic form: manifest.Marshal writes
		// a generic map directly, but anything else inside one (the
		// struct) through sigs.k8s.io/yaml's JSON-to-YAML detour, which
		// gives the same bytes several times slower.
		entry, err := manifest.ToMap(crd.summaryEntry())
		if err != nil {
			return nil, fmt.Errorf("serialising the summary of %s: %w", crd.Name, err)
		}
		data, err := manifest.Marshal(map[string]any{crd.Name: entry})
		if err != nil {
			return nil, fmt.Errorf("serialising the summary of %s: %w", crd.Name, err)
		}
		buf.Write(data)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

// writeSummary records the summary file unless it already has the bytes.
func (r *run) writeSummary(vr *VersionResult) {
	data, err := vr.Summary()
	if err != nil {
		r.problems.Add(diag.Errorf(r.rel(vr.SummaryFile), 0, "", "%v", err))
		vr.Failed = true
		return
	}
	if old, err := r.t.ReadFile(vr.SummaryFile); err == nil && bytes.Equal(old, data) {
		return
	}
	r.t.WriteFile(vr.SummaryFile, data)
}
