package pipeline

import (
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
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
	return v.Discovered.wantsGateDocs() && v.Merged.Result != nil && v.Partials.Result != nil
}

// wantsGateDocs reports whether the configuration and options ask for the
// lifecycle pages, which read stage 2's manifests after the merge.
func (d *Discovered) wantsGateDocs() bool {
	o := d.Run.Options
	return d.Config.FeatureGateDocs.Directory != "" && o.Stages == AllStages && len(o.GroupVersions) == 0 && o.Kinds == nil
}

// GateDocs renders one page per FeatureGate into the configured directory
// of the run's tree, from stage 1's CRDs, the schemas stage 2 wrote and the
// payload directory, and removes pages of gates that are gone.
func (v *Validated) GateDocs() (*Documented, error) {
	r := v.Run
	d := &Documented{Validated: v}
	if !v.wantsGateDocs() {
		return d, nil
	}
	if err := r.check(r.timed("gate-docs", v.writeGateDocs)); err != nil {
		return nil, err
	}
	return d, nil
}

func (v *Validated) writeGateDocs() error {
	r := v.Run
	base := v.Discovered.BaseDir
	var handed []*manifest.File
	if s := v.Schemas.Result; s != nil {
		handed = s.Files
	}
	in := gatelifecycle.Input{BaseDir: base, Files: manifest.NewReader(r.Tree, handed)}
	for _, ver := range v.Partials.Result.Versions {
		in.CRDs = append(in.CRDs, ver.CRDs...)
	}
	if v.Universe != nil {
		packages := map[string]string{}
		for _, ver := range v.Versions() {
			packages[ver.Group+"/"+ver.Version] = ver.ImportPath
		}
		src := crdvalidate.NewSources(v.Universe, packages)
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
