package generators

import (
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/compatlevel"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
)

// Compatibility maintains the "Compatibility level N" line of the doc
// comment of every type embedding TypeMeta.
type Compatibility struct{}

// Name implements generator.Generator.
func (Compatibility) Name() string { return "compatibility" }

// Generate implements generator.Generator.
func (Compatibility) Generate(ctx *generator.Context) error {
	cfg, err := repoconfig.Load(ctx.Discovery.BaseDir)
	if err != nil {
		ctx.Problems.AddError(err)
		return nil
	}
	res, problems := compatlevel.Run(compatlevel.Input{Discovery: ctx.Discovery, Tree: ctx.Tree, Config: cfg.Compatibility,
		ConfigFile: cfg.File, Partial: ctx.Partial, EnforceLevels: cfg.Compatibility.Configured()})
	ctx.Problems.Add(problems...)
	if res != nil {
		ctx.Logf("compatibility: %d type(s) embedding TypeMeta", res.Types)
	}
	return nil
}
