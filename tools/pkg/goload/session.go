package goload

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/internal/workers"
)

// Session keeps a loaded package universe between runs, for codegen
// watch: a run after a save lists the packages with the go command again
// only when it must, parses again only the packages whose files changed
// and type-checks again only those and the packages that import them,
// transitively.
//
// What it keeps is the package graph of one go command listing, of every
// root a run asked for so far, with the state controller-tools' loader
// caches on each package (syntax, types, type information, errors). A
// package whose Go files changed is invalidated with every package that
// imports it, transitively: its types and type information are dropped
// and its errors reset to the go command's, so that the loader checks it
// again, lazily, as in a fresh load; the package whose files changed also
// has its syntax dropped (its files leave the file set) and its compiled
// files reset to the listed ones, so that the loader parses it again. An
// importer keeps its syntax, parsed from files that did not change. Nothing
// a kept package holds refers to an invalidated one, because the
// invalidated set is closed under importers. Every run gets a Universe of
// its own (registry, marker collector, type checker, marker lines) over
// the kept packages, so no per-run cache outlives the run.
//
// The go command's listing of a package depends on the names of its files
// and, for each file, on what comes before its declarations: build
// constraints, the package clause and the imports (the header). A change
// that adds, removes or renames a Go file, changes a header, concerns a
// file the listing did not compile, or a package the universe does not
// hold makes the session load afresh, as does an overlay (compatibility
// lines) or a root it does not hold.
//
// A Session is not safe for concurrent use, and the universes it returns
// share packages: use one at a time, and call Forget after a run that
// failed part-way (its packages may be half-indexed).
type Session struct {
	dir  string
	all  *Universe
	list map[*loader.Package]listed
	// headers hashes the header of every Go file of a package below the
	// module directory, as of the last load or reset.
	headers   map[string][32]byte
	moduleDir string
	// known are the roots of the last load.
	known []string
	// inert holds the verdict of leaveOutInertIn on each generated file
	// it read since the last load, forgotten when the file changes.
	inert map[string]bool
	// Fresh counts the loads that listed packages with the go command;
	// Reused the universes served from kept packages.
	Fresh, Reused int
	// Invalidated counts the packages the last reuse invalidated.
	Invalidated int
}

// listed is what the go command said about one package.
type listed struct {
	errors   []packages.Error
	compiled []string
}

// NewSession returns a session loading with dir as the working directory
// of the go command.
func NewSession(dir string) *Session { return &Session{dir: dir} }

// Forget drops the kept universe: the next Universe call loads afresh.
func (s *Session) Forget() { s.all, s.list, s.headers, s.inert = nil, nil, nil, nil }

// Universe returns a universe whose roots are importPaths, after changed
// (absolute paths of Go files) changed since the last call. fresh forces
// a load with the go command. It reports whether the kept packages
// served.
func (s *Session) Universe(importPaths []string, changed []string, fresh bool, opts Options) (*Universe, bool, error) {
	if !fresh && len(opts.Overlay) == 0 && s.all != nil && s.holdsRoots(importPaths) {
		if dirty, ok := s.dirty(changed); ok {
			s.invalidate(dirty, changed)
			s.Reused++
			return s.view(importPaths), true, nil
		}
	}
	s.Forget()
	if len(opts.Overlay) > 0 {
		// Sources edited in memory (compatibility lines): nothing to keep.
		u, err := LoadWith(s.dir, importPaths, opts)
		if err == nil {
			s.Fresh++
		}
		return u, false, err
	}
	// Load every root asked for so far, so that the next runs, whatever
	// roots they select, find them kept.
	paths := slices.Clone(importPaths)
	for _, p := range s.known {
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	u, err := s.load(paths, opts)
	if err != nil && len(paths) > len(importPaths) {
		paths = slices.Clone(importPaths)
		u, err = s.load(paths, opts)
	}
	if err != nil {
		return nil, false, err
	}
	s.known = paths
	s.Fresh++
	s.all = u
	s.headers = map[string][32]byte{}
	s.moduleDir = moduleDirOf(s.dir)
	s.hashHeaders(s.moduleFiles())
	return s.view(importPaths), false, nil
}

// load is LoadWith, remembering the go command's errors and compiled
// files of every package.
func (s *Session) load(importPaths []string, opts Options) (*Universe, error) {
	u, err := newUniverse(opts.Fset)
	if err != nil {
		return nil, err
	}
	if len(importPaths) == 0 {
		return u, nil
	}
	u.loads++
	roots, err := loader.LoadRootsWithConfig(packagesConfig(s.dir, u.Fset, opts.Overlay), importPaths...)
	if err != nil {
		return nil, err
	}
	s.list = map[*loader.Package]listed{}
	eachPackage(roots, func(p *loader.Package) {
		s.list[p] = listed{errors: slices.Clone(p.Errors), compiled: slices.Clone(p.CompiledGoFiles)}
	})
	s.inert = map[string]bool{}
	leaveOutInert(roots, opts.Overlay, s.inert)
	if err := u.adopt(roots, importPaths, opts); err != nil {
		return nil, err
	}
	return u, nil
}

// view returns a universe of its own over the kept packages, with the
// roots importPaths.
func (s *Session) view(importPaths []string) *Universe {
	u, err := newUniverse(s.all.Fset)
	if err != nil {
		panic(err) // the registry registered once already
	}
	u.dropped = s.all.dropped
	for _, p := range importPaths {
		r := s.all.byPath[p]
		u.Roots = append(u.Roots, r)
		u.byPath[p] = r
	}
	return u
}

func (s *Session) holdsRoots(importPaths []string) bool {
	for _, p := range importPaths {
		if _, ok := s.all.byPath[p]; !ok {
			return false
		}
	}
	return true
}

// dirty returns the packages to invalidate after changed: the packages
// holding the changed files (true) and their importers, transitively
// (false); false when the change needs a new listing.
func (s *Session) dirty(changed []string) (map[*loader.Package]bool, bool) {
	byFile := map[string]*loader.Package{}
	importers := map[*loader.Package][]*loader.Package{}
	s.all.eachPackage(func(p *loader.Package) {
		for _, f := range s.list[p].compiled {
			byFile[f] = p
		}
		for _, imp := range p.Imports() {
			importers[imp] = append(importers[imp], p)
		}
	})
	dirty := map[*loader.Package]bool{}
	var mark func(p *loader.Package)
	mark = func(p *loader.Package) {
		if _, seen := dirty[p]; seen {
			return
		}
		dirty[p] = false
		for _, q := range importers[p] {
			mark(q)
		}
	}
	for _, f := range changed {
		p, ok := byFile[f]
		old, known := s.headers[f]
		if !ok || !known {
			return nil, false // a new file, or one the listing does not compile
		}
		h, ok := header(f)
		if !ok || h != old {
			return nil, false
		}
		mark(p)
		dirty[p] = true
	}
	return dirty, true
}

// invalidate resets every package of dirty to its state right after the
// go command listed it, but for the syntax of the packages holding no
// changed file (dirty's false ones): their files are as they were parsed,
// only their types may change with those of what they import, and
// controller-tools' loader type-checks a package from its Syntax when it
// has one. That saves reading and parsing them again (on openshift/api,
// the 16 importers of config/v1 on every edit of it). A package holding
// changed files keeps the syntax of its other files too, and has only the
// changed ones parsed again (reparse); when that fails, the loader parses
// the package anew and reports what it finds.
func (s *Session) invalidate(dirty map[*loader.Package]bool, changed []string) {
	var edited []*loader.Package
	old := map[*loader.Package][]*ast.File{}
	for p, holdsChange := range dirty {
		l := s.list[p]
		p.Types, p.TypesInfo, p.IllTyped = nil, nil, false
		p.Errors = slices.Clone(l.errors)
		if !holdsChange && p.Syntax != nil {
			continue
		}
		old[p] = p.Syntax
		p.Syntax = nil
		p.CompiledGoFiles = slices.Clone(l.compiled)
		edited = append(edited, p)
	}
	for _, f := range changed {
		delete(s.inert, f)
	}
	leaveOutInertIn(edited, nil, s.inert)
	for _, p := range edited {
		syntax, gone := s.reparse(p, old[p], changed)
		p.Syntax = syntax
		for _, f := range gone {
			if tf := s.all.Fset.File(f.Pos()); tf != nil {
				s.all.Fset.RemoveFile(tf)
			}
		}
		s.all.dropped.forget(gone)
	}
	// The headers stay as hashed: dirty found those of the changed files
	// unchanged, and the others were not saved.
	s.Invalidated = len(dirty)
}

// reparse returns the syntax of p's compiled files made of the files of
// old that did not change and of the changed ones parsed again, as the
// loader parses them, and the files of old that go; or nil syntax, and
// all of old gone, when a file does not parse or was not parsed before:
// the loader then parses the package itself.
func (s *Session) reparse(p *loader.Package, old []*ast.File, changed []string) (syntax, gone []*ast.File) {
	kept := map[string]*ast.File{}
	for _, f := range old {
		if tf := s.all.Fset.File(f.Pos()); tf != nil && !slices.Contains(changed, tf.Name()) {
			kept[tf.Name()] = f
		}
	}
	var parsed []*ast.File
	for _, name := range p.CompiledGoFiles {
		if f, ok := kept[name]; ok {
			syntax = append(syntax, f)
			delete(kept, name)
			continue
		}
		f, ok := s.parseChanged(name, changed)
		if !ok {
			return nil, append(old, parsed...)
		}
		parsed = append(parsed, f)
		syntax = append(syntax, f)
	}
	for _, f := range old {
		if !slices.Contains(syntax, f) {
			gone = append(gone, f)
		}
	}
	return syntax, gone
}

// parseChanged parses name, one of the changed files, into the kept file
// set with the mode controller-tools' loader parses in; false when it is
// not a changed file or does not parse.
func (s *Session) parseChanged(name string, changed []string) (*ast.File, bool) {
	if !slices.Contains(changed, name) {
		return nil, false
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	f, err := parser.ParseFile(s.all.Fset, name, src, parser.AllErrors|parser.ParseComments)
	if err != nil {
		if f != nil {
			if tf := s.all.Fset.File(f.Pos()); tf != nil {
				s.all.Fset.RemoveFile(tf)
			}
		}
		return nil, false
	}
	return f, true
}

// Compiles says whether the last listing compiled the Go file f (an
// absolute path): one it left out by its build constraints (a generated
// file with //go:build !ignore_autogenerated) is in none of the packages.
func (s *Session) Compiles(f string) bool {
	for _, l := range s.list {
		if slices.Contains(l.compiled, f) {
			return true
		}
	}
	return false
}

// moduleFiles returns the listed Go files that lie in the module
// directory.
func (s *Session) moduleFiles() []string {
	var out []string
	if s.moduleDir == "" {
		return nil
	}
	for _, l := range s.list {
		for _, f := range l.compiled {
			if within(s.moduleDir, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

func (s *Session) hashHeaders(files []string) {
	sums := make([][32]byte, len(files))
	ok := make([]bool, len(files))
	workers.Each(len(files), func(i int) { sums[i], ok[i] = header(files[i]) })
	for i, f := range files {
		if ok[i] {
			s.headers[f] = sums[i]
		} else {
			delete(s.headers, f)
		}
	}
}

// header hashes what of a Go file decides the go command's listing: the
// text up to the end of its package clause and imports (build
// constraints, package name, imports).
func header(file string) ([32]byte, bool) {
	src, err := os.ReadFile(file)
	if err != nil {
		return [32]byte{}, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return [32]byte{}, false
	}
	end := f.Name.End()
	for _, d := range f.Decls {
		end = max(end, d.End())
	}
	n := min(int(end)-1, len(src)) // the file's base is 1
	return sha256.Sum256(src[:n]), true
}

// moduleDirOf returns the nearest directory at or above dir with a
// go.mod, or "".
func moduleDirOf(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
		d = filepath.Dir(d)
	}
}

func within(dir, p string) bool {
	return p == dir || len(p) > len(dir) && p[:len(dir)] == dir && p[len(dir)] == filepath.Separator
}
