package cli

import (
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gatelifecycle"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
)

// wantsGateDocs reports whether this run renders the per-gate lifecycle
// pages: .gatedcrd.yaml asks for them and the run saw the whole tree
// through all three stages (a partial run would drop the other
// group-versions' changes).
func (s *runState) wantsGateDocs() bool {
	return s.config.FeatureGateDocs.Directory != "" && s.stages == allStages && len(s.opts.groupVersions) == 0
}

// writeGateDocs renders one page per FeatureGate into the configured
// directory of the run's tree, from stage 1's CRDs, the schemas stage 2
// wrote and the payload directory, and removes pages of gates that are
// gone.
func (s *runState) writeGateDocs(partials *partialschemas.Result, u *goload.Universe) error {
	in := gatelifecycle.Input{BaseDir: s.disc.BaseDir, Read: s.tree.ReadFile}
	for _, v := range partials.Versions {
		in.CRDs = append(in.CRDs, v.CRDs...)
	}
	if u != nil {
		packages := map[string]string{}
		for _, v := range s.disc.Versions() {
			packages[v.Group+"/"+v.Version] = v.ImportPath
		}
		src := crdvalidate.NewSources(u, packages)
		in.Locate = func(group, version, kind, path, name string, match func(any) bool) (string, int, bool) {
			p, ok := src.LocateMarker(group, version, kind, path, name, match)
			return p.File, p.Line, ok
		}
	}
	changes, err := gatelifecycle.Collect(in)
	if err != nil {
		return err
	}
	d, err := s.payloadDirectory()
	if err != nil {
		return err
	}
	rel := s.config.FeatureGateDocs.Directory
	gatelifecycle.Write(s.tree, filepath.Join(s.disc.BaseDir, filepath.FromSlash(rel)), gatelifecycle.Render(rel, changes, d))
	return nil
}
