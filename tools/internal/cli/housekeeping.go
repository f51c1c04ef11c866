package cli

import (
	"go/ast"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
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
