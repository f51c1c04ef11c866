package manifestmerge

import (
	"maps"

	"github.com/gatedcrd/gatedcrd/features/crdvariant"
	"github.com/gatedcrd/gatedcrd/features/featuregate"
	"github.com/gatedcrd/gatedcrd/internal/workers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// emit decides the CRD's files and has bg render them: one function per
// merged CRD, since its files differ in annotations only and share
// everything else, which one renderer renders once. A file whose
// annotations cannot be written ends the list, with its problem.
func (j *crdJob) emit(cm *crdMerge, records []record, pl *payload, pattern filePattern, rules *eraRules, bg *workers.Background) {
	files := rules.decide(records, pl, func(id int) bool {
		_, ok := annotationsOf(cm.datas[id])[manifest.FeatureGatePassThrough]
		return ok
	})
	for _, f := range files {
		obj := withOwnAnnotations(cm.datas[f.data])
		if err := annotate(obj, f); err != nil {
			d := diag.Errorf(cm.file, 0, "metadata.annotations", "%v", err)
			j.outputs = append(j.outputs, output{problem: &d})
			break
		}
		j.outputs = append(j.outputs, output{name: pattern.name(f.components), obj: obj, crd: f.data})
	}
	for _, indexes := range j.byCRD() {
		bg.Go(func() {
			r := manifest.Renderer{Subtrees: j.subtrees}
			for _, i := range indexes {
				o := &j.outputs[i]
				data, err := r.Marshal(o.obj)
				if err != nil {
					d := diag.Errorf(cm.file, 0, "", "cannot serialise the merged CRD: %v", err)
					o.problem = &d
				}
				o.data = data
			}
		})
	}
}

// byCRD groups the indexes of the outputs to render by the merged CRD
// they hold, in order.
func (j *crdJob) byCRD() [][]int {
	var groups [][]int
	group := map[int]int{}
	for i, o := range j.outputs {
		if o.problem != nil {
			continue
		}
		g, ok := group[o.crd]
		if !ok {
			g = len(groups)
			group[o.crd] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// finish, once the files are rendered, reports the first file's problem,
// dropping it and the files after it, and names the files kept.
func (j *crdJob) finish() {
	for i, o := range j.outputs {
		if o.problem != nil {
			j.rep.add(*o.problem)
			j.outputs = j.outputs[:i]
			return
		}
		j.result.Files = append(j.result.Files, o.name)
	}
}

// withOwnAnnotations returns a copy of obj that shares everything but
// its top level, metadata and annotations, for cleanUp and annotate to
// change.
func withOwnAnnotations(obj map[string]any) map[string]any {
	out := maps.Clone(obj)
	if meta, ok := obj["metadata"].(map[string]any); ok {
		meta = maps.Clone(meta)
		if ann, ok := meta["annotations"].(map[string]any); ok {
			meta["annotations"] = maps.Clone(ann)
		}
		out["metadata"] = meta
	}
	return out
}

// annotate gives an output its profile, version and feature-set
// annotations through the one writer of them, and drops
// the feature-gate annotation unless the decision kept it. A kept value
// that is not a list of gate names is an error.
func annotate(obj map[string]any, f outputFile) error {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
	}
	a := crdvariant.Annotations{Versions: f.versions}
	for _, p := range f.profiles {
		a.Profiles = append(a.Profiles, clusterProfiles[p])
	}
	for _, fs := range f.featureSets {
		a.FeatureSets = append(a.FeatureSets, featuregate.FeatureSetName(fs))
	}
	if raw, ok := ann[crdvariant.FeatureGateAnnotation]; ok && f.keepFeatureGate {
		gates, err := crdvariant.ParseGates(stringOf(raw))
		if err != nil {
			return err
		}
		a.Gates = gates
	}
	a.Write(ann)
	if len(ann) > 0 {
		meta["annotations"] = ann
	}
	return nil
}
