package goload

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerdefs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
)

// Universe is the loaded, type-checkable world of one run.
type Universe struct {
	Registry  *markers.Registry
	Collector *markers.Collector
	Checker   *loader.TypeChecker
	// Fset positions every file of the universe, whether or not its package
	// was type-checked (loader.Package.Fset is only set by type checking).
	Fset *token.FileSet
	// Roots are the loaded root packages, in the order of the import paths
	// given to Load.
	Roots []*loader.Package

	byPath map[string]*loader.Package
	// loads counts the go/packages calls made to build the universe.
	loads int
	// lines holds the marker lines of every package a stage asked about.
	lines markerpos.Cache
	// trimmed are the packages whose function bodies were dropped.
	trimmed map[*loader.Package]bool
	// pruned are the packages whose type information was pruned.
	pruned map[*loader.Package]bool
	// dropped are the comments DropFunctionBodies removed (Comments).
	dropped *droppedComments
}

// MarkerLines returns the marker comment lines of pkg by node, with their
// positions, associated once per run with the collector's rule (see
// markerpos): every stage and strict mode locate markers through it.
func (u *Universe) MarkerLines(pkg *loader.Package) markerpos.Lines { return u.lines.Of(pkg) }

// Loads returns how many go/packages calls building u took: 1, or 0 when
// Load was given no import path. Every stage works from the same universe,
// so this is the number of package loads of a whole run, however many gate
// sets it generates schemas for.
func (u *Universe) Loads() int { return u.loads }

// NewRegistry returns a registry holding upstream's CRD markers and ours.
func NewRegistry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		return nil, fmt.Errorf("registering controller-tools CRD markers: %w", err)
	}
	if err := markerdefs.Register(reg); err != nil {
		return nil, fmt.Errorf("registering gatedcrd markers: %w", err)
	}
	return reg, nil
}

// Load loads importPaths (import paths, not directories) with dir as the
// working directory of the go command, in one go/packages call.
func Load(dir string, importPaths []string) (*Universe, error) {
	return LoadWith(dir, importPaths, Options{})
}

// Options are the optional inputs of LoadWith.
type Options struct {
	// Overlay replaces some Go files by new content (absolute path to
	// content) that is not on disk yet: a run that edits sources before
	// generating from them (compatibility comments) still loads once, and
	// --verify never has to write the edits.
	Overlay map[string][]byte
	// Fset and Parsed are files parsed already (by discovery), by absolute
	// path, positioned by Fset: a root package all of whose compiled files
	// are there is not parsed again. Fset then positions the whole
	// universe.
	Fset   *token.FileSet
	Parsed map[string]*ast.File
}

// LoadWith is Load with Options.
func LoadWith(dir string, importPaths []string, opts Options) (*Universe, error) {
	u, err := newUniverse(opts.Fset)
	if err != nil {
		return nil, err
	}
	if len(importPaths) == 0 {
		return u, nil
	}
	u.loads++
	roots, err := loader.LoadRootsWithConfig(packagesConfig(dir, u.Fset, opts.Overlay), importPaths...)
	if err != nil {
		return nil, err
	}
	leaveOutInert(roots, opts.Overlay, nil)
	if err := u.adopt(roots, importPaths, opts); err != nil {
		return nil, err
	}
	return u, nil
}

// newUniverse returns a universe without packages, positioned by fset (a
// new file set when nil).
func newUniverse(fset *token.FileSet) (*Universe, error) {
	reg, err := NewRegistry()
	if err != nil {
		return nil, err
	}
	if fset == nil {
		fset = token.NewFileSet()
	}
	return &Universe{
		Registry:  reg,
		Collector: &markers.Collector{Registry: reg},
		Checker:   &loader.TypeChecker{NodeFilters: []loader.NodeFilter{crd.Generator{}.CheckFilter()}},
		Fset:      fset,
		byPath:    map[string]*loader.Package{},
		dropped:   newDroppedComments(),
	}, nil
}

// adopt makes the loaded roots the universe's, in the order of
// importPaths, with the syntax of opts.Parsed and opts.Overlay.
func (u *Universe) adopt(roots []*loader.Package, importPaths []string, opts Options) error {
	useParsed(roots, opts.Parsed)
	if err := parseOverlaid(u.Fset, roots, opts.Overlay); err != nil {
		return err
	}
	byID := map[string]*loader.Package{}
	for _, r := range roots {
		byID[r.PkgPath] = r
	}
	for _, p := range importPaths {
		r, ok := byID[p]
		if !ok {
			return fmt.Errorf("package %s was not loaded", p)
		}
		u.Roots = append(u.Roots, r)
		u.byPath[p] = r
	}
	return nil
}

// packagesConfig is the go/packages configuration of the load. The
// controller-tools loader asks go/packages for compiled Go files and type
// sizes, which makes `go list` run with -compiled: it then prepares every
// cgo package of the dependency graph (runtime/cgo, net, os/user) through
// the build cache, two thirds of its time (0.27 s against 0.10 s for the
// 267 packages of one openshift/api group-version). No stage reads a cgo
// package's syntax, so -compiled=false, given last, turns that off; with
// cgo off as well, each package's Go files (which go/packages then takes
// as its compiled files) are exactly those a build without cgo compiles,
// so a package that were type-checked anyway would be complete.
func packagesConfig(dir string, fset *token.FileSet, overlay map[string][]byte) *packages.Config {
	return &packages.Config{
		Dir:        dir,
		Fset:       fset,
		Overlay:    overlay,
		BuildFlags: []string{"-compiled=false"},
		Env:        append(os.Environ(), "CGO_ENABLED=0"),
	}
}

// useParsed gives every root package whose compiled files were all parsed
// already their syntax, which controller-tools' loader then keeps instead
// of parsing the files itself (Package.NeedSyntax).
func useParsed(roots []*loader.Package, parsed map[string]*ast.File) {
	if len(parsed) == 0 {
		return
	}
	for _, r := range roots {
		files := make([]*ast.File, 0, len(r.CompiledGoFiles))
		for _, name := range r.CompiledGoFiles {
			f, ok := parsed[name]
			if !ok {
				break
			}
			files = append(files, f)
		}
		if len(files) == len(r.CompiledGoFiles) && len(files) > 0 {
			r.Syntax = files
		}
	}
}

// Root returns the root package with the given import path, or nil.
func (u *Universe) Root(importPath string) *loader.Package {
	for _, r := range u.Roots {
		if r.PkgPath == importPath {
			return r
		}
	}
	return nil
}

// Package returns the loaded package with the given import path, searching
// the roots and, transitively, their imports. It returns nil when the path
// is not part of the universe.
func (u *Universe) Package(importPath string) *loader.Package {
	if p, ok := u.byPath[importPath]; ok {
		return p
	}
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package) *loader.Package
	visit = func(p *loader.Package) *loader.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		u.byPath[p.PkgPath] = p
		if p.PkgPath == importPath {
			return p
		}
		for _, imp := range sortedImports(p) {
			if found := visit(imp); found != nil {
				return found
			}
		}
		return nil
	}
	for _, r := range u.Roots {
		if found := visit(r); found != nil {
			return found
		}
	}
	return nil
}

// PackageCount returns the number of packages reachable from the roots
// (the roots and everything they import, transitively).
func (u *Universe) PackageCount() int {
	n := 0
	u.eachPackage(func(*loader.Package) { n++ })
	return n
}

// eachPackage calls fn once for every package reachable from the roots.
func (u *Universe) eachPackage(fn func(p *loader.Package)) { eachPackage(u.Roots, fn) }

// eachPackage calls fn once for every package reachable from roots.
func eachPackage(roots []*loader.Package, fn func(p *loader.Package)) {
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		fn(p)
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	for _, r := range roots {
		visit(r)
	}
}

func sortedImports(p *loader.Package) []*loader.Package {
	imps := p.Imports()
	paths := make([]string, 0, len(imps))
	for path := range imps {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	out := make([]*loader.Package, 0, len(paths))
	for _, path := range paths {
		out = append(out, imps[path])
	}
	return out
}

// ReportableErrors returns the errors recorded on pkg (from loading or
// marker parsing) that are worth reporting: every one but type errors. The
// shared TypeChecker checks declarations only, against placeholder
// imports, so bodies referring to unchecked imports produce spurious
// errors (controller-gen ignores them the same way); a real type error in
// an API type surfaces as an unknown type when its schema is generated.
// This is the one TypeError filter of the stages.
func ReportableErrors(pkg *loader.Package) []packages.Error {
	var out []packages.Error
	for _, e := range pkg.Errors {
		if e.Kind != packages.TypeError {
			out = append(out, e)
		}
	}
	return out
}

// Diagnostics converts the ReportableErrors of pkg into positioned
// diagnostics.
func Diagnostics(pkg *loader.Package) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, e := range ReportableErrors(pkg) {
		out = append(out, ErrorDiagnostic(e))
	}
	return out
}

// ErrorDiagnostic converts one loader error into a Diagnostic, recovering
// the file and line from a go/packages position "file:line:col".
func ErrorDiagnostic(e packages.Error) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.Error, Message: e.Msg}
	if e.Pos == "" || e.Pos == "-" {
		return d
	}
	if pkgPath, ok := strings.CutSuffix(e.Pos, ":-"); ok {
		// go/packages uses "<package>:-" when no position is known.
		d.Subject = pkgPath
		return d
	}
	d.File, d.Line = SplitPos(e.Pos)
	return d
}

// parseOverlaid parses the root packages that have overlaid files, so that
// their syntax comes from the overlay: controller-tools parses a package's
// files lazily from disk (Package.NeedSyntax) and never consults
// packages.Config.Overlay, but it keeps syntax that is already there.
func parseOverlaid(fset *token.FileSet, roots []*loader.Package, overlay map[string][]byte) error {
	if len(overlay) == 0 {
		return nil
	}
	for _, r := range roots {
		touched := false
		for _, f := range r.CompiledGoFiles {
			if _, ok := overlay[f]; ok {
				touched = true
				break
			}
		}
		if !touched {
			continue
		}
		files := make([]*ast.File, len(r.CompiledGoFiles))
		for i, name := range r.CompiledGoFiles {
			src, ok := overlay[name]
			if !ok {
				var err error
				if src, err = os.ReadFile(name); err != nil {
					return err
				}
			}
			f, err := parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments)
			if err != nil {
				return err
			}
			files[i] = f
		}
		r.Syntax = files
	}
	return nil
}

// SplitPos splits a go/packages position "file:line:col" or "file:line"
// (the file name may contain colons). Positions without a line
// ("pkg/path:-") yield the whole text and line 0.
func SplitPos(pos string) (string, int) {
	parts := strings.Split(pos, ":")
	n := len(parts)
	if n >= 3 {
		if line, err := strconv.Atoi(parts[n-2]); err == nil {
			if _, err := strconv.Atoi(parts[n-1]); err == nil {
				return strings.Join(parts[:n-2], ":"), line
			}
		}
	}
	if n >= 2 {
		if line, err := strconv.Atoi(parts[n-1]); err == nil {
			return strings.Join(parts[:n-1], ":"), line
		}
	}
	return pos, 0
}
