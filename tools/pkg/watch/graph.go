package watch

import (
	"maps"
	"path/filepath"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// graph is what the loads of the cycles so far read: for each
// group-version, the directories of every package its root imports,
// transitively (and its own). It decides which group-versions a change to
// a Go file concerns.
type graph struct {
	// reads maps a group-version ("<group>/<version>") to the package
	// directories its root reads.
	reads map[string]map[string]bool
	// byDir inverts reads: a package directory to the group-versions
	// reading it.
	byDir map[string]map[string]bool
	// versionDirs maps a group-version to its package directory, and
	// versionPaths to its import path.
	versionDirs, versionPaths map[string]string
	// pathOf maps a package directory read to its import path.
	pathOf map[string]string
	// partialSafe says that a group-version's output depends only on the
	// packages its root reads: not so with enumFromConstants (an enum
	// collects constants from every loaded package) or featureGateDocs
	// (pages span every group-version, and a restricted run skips them).
	partialSafe bool
	moduleDir   string
}

// graphOf records what a load read; nil when it loaded no Go.
func graphOf(l *pipeline.Loaded) *graph {
	if l.Universe == nil {
		return nil
	}
	g := &graph{reads: map[string]map[string]bool{}, versionDirs: map[string]string{}, versionPaths: map[string]string{}, pathOf: map[string]string{},
		moduleDir:   l.Discovery.ModuleDir,
		partialSafe: !l.Config.EnumFromConstants && l.Config.FeatureGateDocs.Directory == ""}
	names := map[string]string{} // import path -> group-version
	for _, v := range l.Discovery.Versions() {
		names[v.ImportPath] = v.Name()
		g.versionDirs[v.Name()] = v.Dir
		g.versionPaths[v.Name()] = v.ImportPath
	}
	for _, root := range l.Universe.Roots {
		gv, ok := names[root.PkgPath]
		if !ok {
			continue
		}
		dirs := map[string]bool{}
		visit(root, map[*loader.Package]bool{}, func(p *loader.Package) {
			if d := packageDir(p); d != "" {
				dirs[d] = true
				g.pathOf[d] = p.PkgPath
			}
		})
		g.reads[gv] = dirs
	}
	g.index()
	return g
}

// update merges a newer load into g: a full load replaces it, a
// restricted one replaces what its group-versions read.
func (g *graph) update(n *graph, full bool) *graph {
	if g == nil || full {
		return n
	}
	for gv, dirs := range n.reads {
		g.reads[gv] = dirs
	}
	for gv, dir := range n.versionDirs {
		g.versionDirs[gv] = dir
		g.versionPaths[gv] = n.versionPaths[gv]
	}
	maps.Copy(g.pathOf, n.pathOf)
	g.partialSafe, g.moduleDir = n.partialSafe, n.moduleDir
	g.index()
	return g
}

func (g *graph) index() {
	g.byDir = map[string]map[string]bool{}
	for gv, dirs := range g.reads {
		for d := range dirs {
			if g.byDir[d] == nil {
				g.byDir[d] = map[string]bool{}
			}
			g.byDir[d][gv] = true
		}
	}
}

// versionOf returns the group-version whose package directory holds p.
func (g *graph) versionOf(p string) (string, bool) {
	best, found := "", ""
	for gv, dir := range g.versionDirs {
		if within(dir, p) && len(dir) > len(best) {
			best, found = dir, gv
		}
	}
	return found, found != ""
}

// watchDirs are the package directories read that lie in the module of
// the tree but outside base (base itself is watched as a whole): where
// the module's own shared types live when --base-dir is a subdirectory.
func (g *graph) watchDirs(base string) []string {
	var out []string
	if g.moduleDir == "" {
		return nil
	}
	for d := range g.byDir {
		if within(g.moduleDir, d) && !within(base, d) && !strings.Contains(filepath.ToSlash(d), "/vendor/") {
			out = append(out, d)
		}
	}
	if !within(base, g.moduleDir) {
		out = append(out, g.moduleDir) // go.mod, go.sum
	}
	return out
}

// visit calls fn once for p and every package it imports, transitively.
func visit(p *loader.Package, seen map[*loader.Package]bool, fn func(*loader.Package)) {
	if p == nil || seen[p] {
		return
	}
	seen[p] = true
	fn(p)
	for _, imp := range p.Imports() {
		visit(imp, seen, fn)
	}
}

// packageDir is the directory of p's files.
func packageDir(p *loader.Package) string {
	if p.Dir != "" {
		return p.Dir
	}
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}
