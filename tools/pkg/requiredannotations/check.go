package requiredannotations

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// mergedDir holds the final CRD manifests of a version directory.
const mergedDir = manifestmerge.OutputDirName

// Input is what Check needs.
type Input struct {
	Discovery *discovery.Result
	Tree      *tree.Tree
	Rule      repoconfig.RequiredAnnotations
	// Merged are the files the merge stage wrote in the same process:
	// checked as they are, without reading and parsing them again. Other
	// files of the output directories are read through Tree.
	Merged []*manifestmerge.Output
	// Locate finds the Go type declaration of a kind of an API
	// group-version, to point problems at it (the pipeline's schema source
	// map, crdvalidate.Sources.Locate with the empty path). Optional:
	// without it, or when it finds nothing, problems name the manifest
	// file.
	Locate func(group, version, kind string) (file string, line int, ok bool)
	// Untouched are the CRDs a restricted run left alone
	// (pipeline.Options.Kinds): their outputs are not checked again.
	Untouched manifest.Untouched
}

// Check returns one error per CRD and missing annotation.
func Check(in Input) []diag.Diagnostic {
	if len(in.Rule.Annotations) == 0 {
		return nil
	}
	merged := make(map[string]map[string]any, len(in.Merged))
	for _, o := range in.Merged {
		merged[o.Path] = o.Object
	}
	var out []diag.Diagnostic
	for _, v := range in.Discovery.Versions() {
		out = append(out, checkVersion(in, v, merged)...)
	}
	return out
}

// lack is one CRD lacking one annotation.
type lack struct {
	crd, kind, annotation string
	files                 []string
}

// object returns the parsed manifest at path: the one handed over, or
// the file read through the tree.
func (in Input) object(path string, merged map[string]map[string]any) (map[string]any, *diag.Diagnostic) {
	if obj, ok := merged[path]; ok {
		return obj, nil
	}
	data, err := in.Tree.ReadFile(path)
	if err != nil {
		d := diag.Errorf(path, 0, "", "cannot be read: %v", err)
		return nil, &d
	}
	obj, err := manifest.Parse(data)
	if err != nil {
		d := diag.Errorf(path, 0, "", "%v", err)
		return nil, &d
	}
	return obj, nil
}

// untouched reports whether the output at path, not handed over, is one
// of an untouched CRD.
func (in Input) untouched(path string, merged map[string]map[string]any) bool {
	if _, handed := merged[path]; handed || len(in.Untouched) == 0 {
		return false
	}
	data, err := in.Tree.ReadFile(path)
	return err == nil && in.Untouched.Merged(data)
}

func checkVersion(in Input, v *discovery.Version, merged map[string]map[string]any) []diag.Diagnostic {
	paths, err := manifestmerge.OutputFiles(in.Tree, v)
	if err != nil {
		return []diag.Diagnostic{diag.Errorf(filepath.Join(v.Dir, mergedDir), 0, "", "cannot be read: %v", err)}
	}
	var out []diag.Diagnostic
	lacks := map[string]*lack{}
	for _, path := range paths {
		if in.untouched(path, merged) {
			continue
		}
		obj, problem := in.object(path, merged)
		if problem != nil {
			out = append(out, *problem)
			continue
		}
		name, group, kind, annotations := fields(obj)
		if !strings.HasSuffix(group, in.Rule.GroupSuffix) {
			continue
		}
		for _, a := range in.Rule.Annotations {
			if v, _ := annotations[a].(string); v != "" {
				continue
			}
			key := name + "\x00" + a
			if lacks[key] == nil {
				lacks[key] = &lack{crd: name, kind: kind, annotation: a}
			}
			lacks[key].files = append(lacks[key].files, filepath.Base(path))
		}
	}
	keys := make([]string, 0, len(lacks))
	for k := range lacks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, in.report(v, lacks[k]))
	}
	return out
}

func fields(obj map[string]any) (name, group, kind string, annotations map[string]any) {
	meta, _ := obj["metadata"].(map[string]any)
	name, _ = meta["name"].(string)
	annotations, _ = meta["annotations"].(map[string]any)
	spec, _ := obj["spec"].(map[string]any)
	group, _ = spec["group"].(string)
	if group == "" {
		// The group is the CRD name after its plural.
		_, group, _ = strings.Cut(name, ".")
	}
	names, _ := spec["names"].(map[string]any)
	kind, _ = names["kind"].(string)
	return name, group, kind, annotations
}

func (in Input) report(v *discovery.Version, l *lack) diag.Diagnostic {
	sort.Strings(l.files)
	where := filepath.ToSlash(filepath.Join(mergedDir, l.files[0]))
	if len(l.files) > 1 {
		where += fmt.Sprintf(" (and %d more file(s))", len(l.files)-1)
	}
	file, line := in.locate(v, l.kind)
	if file == "" {
		file = filepath.Join(v.Dir, mergedDir, l.files[0])
	}
	return diag.Errorf(file, line, "type "+l.kind,
		"CRD %s must carry the annotation %s (groups ending in %q require it) but %s lacks it; add %s to the type's comment",
		l.crd, l.annotation, in.Rule.GroupSuffix, where, MarkerFor(l.annotation))
}

// locate finds the declaration of the Go type named kind in v's package.
func (in Input) locate(v *discovery.Version, kind string) (string, int) {
	if in.Locate == nil || kind == "" {
		return "", 0
	}
	if file, line, ok := in.Locate(v.Group, v.Version, kind); ok {
		return file, line
	}
	return "", 0
}

// MarkerFor is the marker that puts annotation key on a CRD.
func MarkerFor(key string) string {
	switch key {
	case manifest.ApprovedAnnotation:
		return "+openshift:api-approved.openshift.io=<PR URL>"
	case manifest.CapabilityAnnotation:
		return "+openshift:capability=<capability name>"
	}
	return fmt.Sprintf(`+kubebuilder:metadata:annotations="%s=<value>"`, key)
}
