package main

import (
	"fmt"
	"sort"
	"strings"
)

// A layer rule forbids the packages below from, in one module, to import
// the packages below any of above: a lower layer never depends on a higher
// one, so that each can be read, tested and vendored without what is
// built on it. Paths are relative to the module's directory.
type layerRule struct {
	module, modulePath string
	from               string
	above              []string
}

// layerRules are the repository's layers, lowest first:
//   - the root module's internal/ packages serve every module and import
//     nothing else of the repository; features/ (the registry) is below
//     example/, the example API group built on it;
//   - the tools' pkg/ packages are the libraries that the command code
//     (internal/cli) and the developer programs (cmd/) are built from.
var layerRules = []layerRule{
	{module: ".", modulePath: "github.com/gatedcrd/gatedcrd", from: "internal", above: []string{"features", "example"}},
	{module: ".", modulePath: "github.com/gatedcrd/gatedcrd", from: "features", above: []string{"example"}},
	{module: "tools", modulePath: "github.com/gatedcrd/gatedcrd/tools", from: "pkg", above: []string{"internal", "cmd"}},
}

// checkLayers lists the non-test imports of every package of the modules
// the rules name and returns an error naming each import that goes up.
func checkLayers(root string) error {
	graphs := map[string]map[string][]string{}
	var problems []string
	for _, r := range layerRules {
		g, ok := graphs[r.module]
		if !ok {
			var err error
			if g, err = importGraph(root + "/" + r.module); err != nil {
				return err
			}
			graphs[r.module] = g
		}
		problems = append(problems, r.violations(g)...)
	}
	if len(problems) > 0 {
		return fmt.Errorf("imports from a lower layer to a higher one (see layerRules in tools/cmd/layoutdoc):\n%s", strings.Join(problems, "\n"))
	}
	return nil
}

// violations returns "importer imports imported" for every import of
// graph (package path to its imports) that breaks the rule, sorted.
func (r layerRule) violations(graph map[string][]string) []string {
	var out []string
	for pkg, imports := range graph {
		if !r.below(pkg, r.from) {
			continue
		}
		for _, imp := range imports {
			for _, up := range r.above {
				if r.below(imp, up) {
					out = append(out, fmt.Sprintf("%s imports %s", pkg, imp))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// below reports whether the package path lies in the module's directory dir.
func (r layerRule) below(pkgPath, dir string) bool {
	prefix := r.modulePath + "/" + dir
	return pkgPath == prefix || strings.HasPrefix(pkgPath, prefix+"/")
}

// importGraph maps every package of the module at dir to its non-test
// imports, as go list reports them from the sources.
func importGraph(dir string) (map[string][]string, error) {
	lines, err := goList(dir, "-e", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}")
	if err != nil {
		return nil, err
	}
	graph := map[string][]string{}
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, "\t")
		graph[pkg] = strings.Fields(imports)
	}
	return graph, nil
}
