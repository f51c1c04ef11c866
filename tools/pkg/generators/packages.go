package generators

import (
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
)

// forEachOptions runs a per-package gengo generator once per distinct set
// of options over the run's one universe: options gives a group's options
// (its .codegen.yaml section or the flags) and whether the generator is
// on for it; generate records the files of the packages sharing options.
// The universe is loaded only if some group needs it.
func forEachOptions[O comparable](ctx *generator.Context, name string, options func(*discovery.Group) (O, bool), generate func(*gengo.Universe, []string, O) ([]string, error)) error {
	byOptions := map[O][]string{}
	var order []O
	for _, grp := range ctx.Discovery.Groups {
		o, on := options(grp)
		if !on {
			ctx.Logf("%s: %s is disabled by its %s", name, grp.Name, discovery.ConfigFileName)
			continue
		}
		if _, seen := byOptions[o]; !seen {
			order = append(order, o)
		}
		byOptions[o] = append(byOptions[o], importPaths(grp)...)
	}
	if len(order) == 0 {
		return nil
	}
	u, err := ctx.Gengo()
	if err != nil {
		return err
	}
	for _, o := range order {
		paths, err := generate(u, byOptions[o], o)
		if err != nil {
			return err
		}
		ctx.Logf("%s: %d file(s) for %d package(s)", name, len(paths), len(byOptions[o]))
	}
	return nil
}

// importPaths are the import paths of a group's versions.
func importPaths(g *discovery.Group) []string {
	out := make([]string, 0, len(g.Versions))
	for _, v := range g.Versions {
		out = append(out, v.ImportPath)
	}
	return out
}
