package generators

import (
	"fmt"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// forEachOptions runs a per-package gengo generator once per distinct set
// of options over the run's one universe: options gives a group's options
// (its .codegen.yaml section or the flags) and whether the generator is
// on for it; generate records the files of the packages sharing options.
// The universe is loaded only if some group needs it.
func forEachOptions[O comparable](ctx *generator.Context, name string, options func(*discovery.Group) (O, bool), headers func(O) string, generate func(*gengo.Universe, *tree.Tree, []string, O) ([]string, error)) error {
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
	var plan strings.Builder
	var files []string
	for _, o := range order {
		fmt.Fprintf(&plan, "%#v %q\n", o, byOptions[o])
		files = append(files, headers(o))
	}
	return ctx.Cached(name, plan.String(), files, func(t *tree.Tree) error {
		u, err := ctx.Gengo()
		if err != nil {
			return err
		}
		for _, o := range order {
			paths, err := generate(u, t, byOptions[o], o)
			if err != nil {
				return err
			}
			ctx.Logf("%s: %d file(s) for %d package(s)", name, len(paths), len(byOptions[o]))
		}
		return nil
	})
}

// importPaths are the import paths of a group's versions.
func importPaths(g *discovery.Group) []string {
	out := make([]string, 0, len(g.Versions))
	for _, v := range g.Versions {
		out = append(out, v.ImportPath)
	}
	return out
}
