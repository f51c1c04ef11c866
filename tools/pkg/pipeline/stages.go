package pipeline

import (
	"slices"

	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/partialschemas"
	"github.com/gatedcrd/gatedcrd/tools/pkg/schemapatch"
)

// Partials are stage 1's partial manifests: for every CRD root type, one
// schema-less manifest per gate entry, written into the tree.
type Partials struct {
	*Checked
	// PartialSchemas is stage 1's result; nil when stage 1
	// (PartialSchemas) was not selected.
	PartialSchemas *partialschemas.Result
	// untouched are the CRDs Options.Kinds leaves alone.
	untouched manifest.Untouched
}

// PartialManifests runs stage 1, empty-partial-schemas.
func (c *Checked) PartialManifests() (*Partials, error) {
	r := c.Run
	p := &Partials{Checked: c}
	err := r.stage(PartialSchemas, "empty-partial-schemas", func() error {
		c.checkTypes()
		res, err := partialschemas.Run(partialschemas.Input{Discovery: c.Discovery, Universe: c.Universe, Tree: r.Tree, Problems: r.Problems,
			Strict: r.strict, Prefetch: c.takeExisting(), Only: r.onlyKinds(), Memo: r.kept().manifests,
			Indexes: r.kept().partialIndexes, OwnPackageTypeMarkers: r.ownPackageTypeMarkers()})
		if err == nil {
			p.PartialSchemas = res
			p.untouched = untouchedCRDs(res)
			r.Stats.addPartials(res)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// onlyKinds is stage 1's Only for Options.Kinds (nil when not set).
func (r *Run) onlyKinds() func(groupVersion, kind string) bool {
	if r.Options.Kinds == nil {
		return nil
	}
	return func(gv, kind string) bool {
		kinds, ok := r.Options.Kinds[gv]
		return !ok || slices.Contains(kinds, kind)
	}
}

// untouchedCRDs are the CRDs stage 1 left alone.
func untouchedCRDs(res *partialschemas.Result) manifest.Untouched {
	out := manifest.Untouched{}
	for _, v := range res.Versions {
		for _, crd := range v.CRDs {
			if crd.Untouched {
				out[crd.Name] = true
			}
		}
	}
	return out
}

// takeManifests hands stage 1's partial manifests over as stage 2 takes
// them, with the gate set of each, and keeps no copy of their bytes and
// objects: stage 2 drops each one (old schema and all) once its
// replacement is written. None when stage 1 did not run.
func (p *Partials) takeManifests() []schemapatch.Partial {
	if p.PartialSchemas == nil {
		return nil
	}
	var out []schemapatch.Partial
	for _, m := range p.PartialSchemas.Manifests() {
		out = append(out, schemapatch.Partial{File: m.File(), Gates: markerdefs.NewGateSet(m.GateNames...)})
	}
	p.PartialSchemas.Release()
	return out
}

// Schemas are the partial manifests with their schemas filled, one schema
// per kind and gate set, in the tree.
type Schemas struct {
	*Partials
	// SchemaPatch is stage 2's result; nil when stage 2 (SchemaPatch) was
	// not selected.
	SchemaPatch *schemapatch.Result
}

// Schemas runs stage 2, schemapatch. When stage 3 is selected too, stage
// 2 presumes the files that look like stage 3 output to be such without
// parsing them (schemapatch.Result.Presumed), and Merge settles them, so
// call Merge after it (as Generate does).
func (p *Partials) Schemas() (*Schemas, error) {
	r := p.Run
	s := &Schemas{Partials: p}
	err := r.stage(SchemaPatch, "schemapatch", func() error {
		p.dropBodies()
		in := schemapatch.Input{Discovery: p.Discovery, Universe: p.Universe, Tree: r.Tree, Problems: r.Problems,
			EnumFromConstants: p.Config.EnumFromConstants, Partials: p.takeManifests(),
			PresumeMerged: r.Options.Stages&ManifestMerge != 0, Untouched: p.untouched, Memo: r.kept().manifests,
			Indexes: r.kept().schemaIndexes, Subtrees: r.rendering()}
		in.Era = r.schemaEra()
		res, err := schemapatch.Run(in)
		if err == nil {
			s.SchemaPatch = res
			r.Stats.GateSets, r.Stats.SchemasGenerated = res.GateSets, res.Schemas
		}
		return err
	})
	if err != nil && s.SchemaPatch != nil && len(s.SchemaPatch.Presumed) > 0 {
		// Stage 3 will not run to settle them: report what stage 2 would
		// have found in them, and count the errors again.
		s.SchemaPatch.Settle(r.BaseDir(), r.Problems, nil)
		err = r.check(nil)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// takeFiles hands the manifests stage 2 processed over to the merge, and
// keeps none: nil when stage 2 did not run.
func (s *Schemas) takeFiles() []*manifest.File {
	if s.SchemaPatch == nil {
		return nil
	}
	files := s.SchemaPatch.Files
	s.SchemaPatch.Files = nil
	return files
}

// Merged are stage 3's merged variants: the fewest CRD files describing
// every major version × ClusterProfile × FeatureSet, in the tree.
type Merged struct {
	*Schemas
	// ManifestMerge is stage 3's result; nil when stage 3 (ManifestMerge)
	// was not selected or nothing was discovered.
	ManifestMerge *manifestmerge.Result
	// stage2Files are the manifests of stage 2 the merge read, handed on
	// to the steps after it that read stage 2's output (GateDocs), which
	// drops them.
	stage2Files []*manifest.File
}

// Merge runs stage 3, crd-manifest-merge, with the payload directory.
func (s *Schemas) Merge() (*Merged, error) {
	r := s.Run
	m := &Merged{Schemas: s, stage2Files: s.takeFiles()}
	if len(s.Discovery.Versions()) == 0 {
		s.settlePresumed(nil)
		return m, nil
	}
	s.dropBodies()
	err := r.stage(ManifestMerge, "crd-manifest-merge", func() error {
		d, err := r.Payload()
		if err != nil {
			r.Problems.Add(r.payloadProblems(err)...)
			s.settlePresumed(nil)
			return nil
		}
		res, err := manifestmerge.Run(manifestmerge.Input{Discovery: s.Discovery, Tree: r.Tree, Problems: r.Problems,
			Payload: d, Era: d.Era, Files: m.stage2Files, Untouched: s.untouched, Subtrees: r.rendering()})
		s.settlePresumed(res)
		if err == nil {
			m.ManifestMerge = res
			tot := res.Totals()
			r.Stats.Tuples, r.Stats.MergesComputed, r.Stats.MergedFiles = tot.Tuples, tot.InputSets, tot.Files
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// settlePresumed checks the files stage 2 presumed to be stage 3 output
// against what stage 3 did (res; nil when it did not run).
func (s *Schemas) settlePresumed(res *manifestmerge.Result) {
	if s.SchemaPatch == nil || len(s.SchemaPatch.Presumed) == 0 {
		return
	}
	var stage3 func(string) ([]byte, bool)
	if res != nil {
		touched := map[string][]byte{}
		for _, v := range res.Versions {
			for _, p := range v.Removed {
				touched[p] = nil
			}
			for _, o := range v.Outputs {
				touched[o.Path] = o.Data
			}
		}
		stage3 = func(p string) ([]byte, bool) {
			data, ok := touched[p]
			return data, ok
		}
	}
	s.SchemaPatch.Settle(s.Run.BaseDir(), s.Run.Problems, stage3)
}
