package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
)

// isGoSource says whether p is a Go file a package compiles (not a test).
// The go command ignores files whose names start with "." or "_", such as
// the lock files Emacs makes while a buffer has unsaved edits (".#x.go").
func isGoSource(p string) bool {
	name := filepath.Base(p)
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") &&
		!strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
}

// isOutputSource says whether p is a generated Go file (deepcopy, swagger
// docs): its declarations are not tracked, so a change to it may concern
// any type of its package.
func isOutputSource(p string) bool { return strings.HasPrefix(filepath.Base(p), "zz_generated") }

// relevant classifies p: an input of the generation, or not.
func (w *Watcher) relevant(p string) inputKind {
	name := filepath.Base(p)
	if strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") {
		return notInput // a write of ours in progress
	}
	if strings.Contains(filepath.ToSlash(p), "/zz_generated.") && !strings.HasSuffix(name, ".go") {
		return notInput // our own output
	}
	switch name {
	case ".gatedcrd.yaml", ".codegen.yaml", ".codegen-baseline.yaml":
		return config
	case "go.mod", "go.sum":
		if dir := filepath.Dir(p); dir == w.moduleDir || dir == w.base {
			return config
		}
		return notInput
	}
	if w.payloadDir != "" && within(w.payloadDir, p) {
		return payloadFile
	}
	if strings.Contains(filepath.ToSlash(p), "/manual-override-crd-manifests/") {
		return override
	}
	if isGoSource(p) {
		if w.graph != nil {
			if _, ok := w.graph.byDir[filepath.Dir(p)]; ok {
				return goSource
			}
		}
		if within(w.base, p) && mayDeclareGroupVersion(p) {
			return goSource // perhaps a new group-version
		}
	}
	if w.opts.Observe != nil && w.opts.Observe(p) {
		return observed
	}
	return notInput
}

// mayDeclareGroupVersion says whether a Go file outside the packages read
// so far could make discovery find a new group-version (it mentions
// GroupVersion), or is gone.
func mayDeclareGroupVersion(p string) bool {
	data, err := os.ReadFile(p)
	if err != nil {
		return true
	}
	return strings.Contains(string(data), "GroupVersion")
}

// within reports whether p is dir or lies below it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// watchTree watches dir and every directory below it that discovery
// would walk, but for the generated output directories.
func (w *Watcher) watchTree(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && skipDir(p, d.Name()) {
			return filepath.SkipDir
		}
		return w.add(p)
	})
}

func (w *Watcher) add(dir string) error {
	if w.watched[dir] {
		return nil
	}
	if err := w.fsw.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	w.watched[dir] = true
	return nil
}

// Watched returns the directories being watched, sorted.
func (w *Watcher) Watched() []string {
	out := make([]string, 0, len(w.watched))
	for d := range w.watched {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// skipDir are the directories not watched: those discovery does not walk
// (discovery.SkipsDir: .git, vendor, testdata, hidden ones, _ ones, our
// output directories), nested modules, and node_modules, which editors'
// tooling fills with thousands of directories and never a Go package.
func skipDir(p, name string) bool {
	if discovery.SkipsDir(name) || name == "node_modules" {
		return true
	}
	_, err := os.Stat(filepath.Join(p, "go.mod"))
	return err == nil
}
