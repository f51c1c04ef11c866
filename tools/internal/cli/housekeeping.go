package cli

import (
	"go/ast"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/requiredannotations"
)

// loadRepoConfig reads <base-dir>/.gatedcrd.yaml once per run; a problem
// in it is bad input.
func (s *runState) loadRepoConfig() error {
	cfg, err := repoconfig.Load(s.disc.BaseDir)
	s.config = cfg
	return err
}

// applyCompatibility brings the compatibility lines of the Go doc comments
// up to date in the run's tree; the edited files are loaded from memory, so
// that the schemas generated in this run already describe the new comments.
func (s *runState) applyCompatibility() error {
	res, problems := compatlevel.Run(compatlevel.Input{Discovery: s.disc, Tree: s.tree, Config: s.config.Compatibility,
		ConfigFile: s.config.File, Partial: len(s.opts.groupVersions) > 0})
	s.problems.Add(problems...)
	if res != nil {
		s.overlay = res.Sources
	}
	return nil
}

// checkRequiredAnnotations runs the required-annotation rule on the final
// manifests of this run. With a loaded universe, problems point at the Go
// type declaration.
func (s *runState) checkRequiredAnnotations(u *goload.Universe) {
	in := requiredannotations.Input{Discovery: s.disc, Tree: s.tree, Rule: s.config.RequiredAnnotations}
	if u != nil {
		in.Syntax = func(v *discovery.Version) []*ast.File {
			if p := u.Root(v.ImportPath); p != nil {
				return p.Syntax
			}
			return nil
		}
		in.Position = func(n ast.Node) (string, int) {
			p := u.Fset.Position(n.Pos())
			return p.Filename, p.Line
		}
	}
	s.problems.Add(requiredannotations.Check(in)...)
}
