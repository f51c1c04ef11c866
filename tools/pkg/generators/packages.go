package generators

import (
	"fmt"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/gengo"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// forEachOptions runs a per-package gengo generator over the run's one
// universe, once per distinct set of options: options gives a group's
// options (its .codegen.yaml section or the flags) and whether the
// generator is on for it; generate records the files of the packages
// sharing options. Each package's files are cached on their own (a
// package's output depends on the whole universe, which the key covers,
// but it is a file of its own), so a run restricted to some
// group-versions finds them too; the universe is loaded only if some
// package is not in the cache.
func forEachOptions[O comparable](ctx *generator.Context, name string, options func(*discovery.Group) (O, bool), headers func(O) string, generate func(*gengo.Universe, *tree.Tree, []string, O) ([]string, error)) error {
	type pkg struct {
		version *discovery.Version
		options O
		key     string
	}
	var missed []pkg
	recalled := 0
	for _, grp := range ctx.Discovery.Groups {
		o, on := options(grp)
		if !on {
			ctx.Logf("%s: %s is disabled by its %s", name, grp.Name, discovery.ConfigFileName)
			continue
		}
		for _, v := range grp.Versions {
			key := ctx.CacheKey(name, fmt.Sprintf("%#v %s", o, v.ImportPath), []string{headers(o)})
			if files, ok := ctx.Recall(key); ok {
				for p, data := range files {
					ctx.Tree.Put(p, data)
				}
				recalled++
				continue
			}
			missed = append(missed, pkg{v, o, key})
		}
	}
	if recalled > 0 {
		ctx.Logf("%s: %d package(s) from the cache (unchanged Go inputs and options)", name, recalled)
	}
	if len(missed) == 0 {
		return nil
	}
	u, err := ctx.Gengo()
	if err != nil {
		return err
	}
	byOptions := map[O][]string{}
	var order []O
	for _, p := range missed {
		if _, seen := byOptions[p.options]; !seen {
			order = append(order, p.options)
		}
		byOptions[p.options] = append(byOptions[p.options], p.version.ImportPath)
	}
	t := tree.New()
	for _, o := range order {
		paths, err := generate(u, t, byOptions[o], o)
		if err != nil {
			return err
		}
		ctx.Logf("%s: %d file(s) for %d package(s)", name, len(paths), len(byOptions[o]))
	}
	written := t.Written()
	for path, data := range written {
		ctx.Tree.Put(path, data)
	}
	for _, p := range missed {
		files := map[string][]byte{}
		for path, data := range written {
			if filepath.Dir(path) == p.version.Dir {
				files[path] = data
			}
		}
		ctx.Keep(p.key, files)
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
