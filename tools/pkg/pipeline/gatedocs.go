package pipeline

import (
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/pkg/gatelifecycle"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
)

// Documented is the validated output plus the per-gate lifecycle pages of
// .gatedcrd.yaml's featureGateDocs, written into the tree when the run
// renders them.
type Documented struct {
	*Validated
}

// wantsGateDocs reports whether this run renders the per-gate lifecycle
// pages: .gatedcrd.yaml asks for them and the run saw the whole tree
// through all three stages (a partial run would drop the other
// group-versions' changes).
func (v *Validated) wantsGateDocs() bool {
	o := v.Run.Options
	return v.Config.FeatureGateDocs.Directory != "" && o.Stages == AllStages && len(o.GroupVersions) == 0 && o.Kinds == nil &&
		v.ManifestMerge != nil && v.PartialSchemas != nil
}

// GateDocs renders one page per FeatureGate into the configured directory
// of the run's tree, from stage 1's CRDs, the schemas stage 2 wrote and the
// payload directory, and removes pages of gates that are gone. It is the
// last reader of stage 2's manifests, and drops them whether it renders or
// not.
func (v *Validated) GateDocs() (*Documented, error) {
	r := v.Run
	d := &Documented{Validated: v}
	stage2 := v.stage2Files
	v.stage2Files = nil
	if !v.wantsGateDocs() {
		return d, nil
	}
	if err := r.check(r.timed("gate-docs", func() error { return v.writeGateDocs(stage2) })); err != nil {
		return nil, err
	}
	return d, nil
}

// writeGateDocs renders the pages; stage2 are the manifests stage 2 handed
// on, read as they are instead of parsing their files again.
func (v *Validated) writeGateDocs(stage2 []*manifest.File) error {
	r := v.Run
	base := v.Discovery.BaseDir
	in := gatelifecycle.Input{BaseDir: base, Files: manifest.NewReader(r.Tree, stage2)}
	for _, ver := range v.PartialSchemas.Versions {
		in.CRDs = append(in.CRDs, ver.CRDs...)
	}
	if src := v.Sources(); src != nil {
		in.Locate = func(group, version, kind, path, name string, match func(any) bool) (string, int, bool) {
			p, ok := src.LocateMarker(group, version, kind, path, name, match)
			return p.File, p.Line, ok
		}
	}
	changes, err := gatelifecycle.Collect(in)
	if err != nil {
		return err
	}
	payloadDir, err := r.Payload()
	if err != nil {
		return err
	}
	rel := v.Config.FeatureGateDocs.Directory
	gatelifecycle.Write(r.Tree, filepath.Join(base, filepath.FromSlash(rel)), gatelifecycle.Render(rel, changes, payloadDir))
	return nil
}
