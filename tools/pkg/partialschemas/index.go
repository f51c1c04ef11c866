package partialschemas

import (
	"errors"
	"go/ast"
	"go/token"
	"path/filepath"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
	"github.com/gatedcrd/gatedcrd/tools/pkg/strictmarkers"
)

// pkgIndex is what stage 1 knows about one loaded package: the collector's
// marker values by node, the raw marker lines by node, and the declarations
// by the position go/types reports for them.
type pkgIndex struct {
	pkg *loader.Package
	// syntax is the package's syntax the index was made from
	// (IndexCache).
	syntax goload.Syntax
	// failed is set when the collector could not parse the package's
	// markers; problems are the errors.
	failed   bool
	problems []diag.Diagnostic
	values   map[ast.Node]markers.MarkerValues
	raw      markerpos.Lines
	// specs are the package's type declarations in source order.
	specs []*ast.TypeSpec
	// specAt maps a type name's position (types.Object.Pos) to its spec.
	specAt map[token.Pos]*ast.TypeSpec
	// fieldAt maps a struct field's position (types.Var.Pos: the name, or
	// the type name of an embedded field) to its declaration.
	fieldAt map[token.Pos]*ast.Field
}

// indexes are the package indexes of a run, built once each by the first
// CRD that needs one while the others wait for it, and the run's lookups
// of loaded packages by import path (goload.Universe.Package, which is
// not safe for concurrent use).
type indexes struct {
	u  *goload.Universe
	mu sync.Mutex
	m  map[*loader.Package]*indexOnce
}

type indexOnce struct {
	once sync.Once
	idx  *pkgIndex
}

func newIndexes(u *goload.Universe) *indexes {
	return &indexes{u: u, m: map[*loader.Package]*indexOnce{}}
}

// pkg returns the loaded package with the import path, or nil.
func (x *indexes) pkg(importPath string) *loader.Package {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.u.Package(importPath)
}

// index returns the index of pkg, building it on first use. Marker parse
// errors are reported to every run (CRD) that asks for a package they
// fail (the lists of a stage drop repetitions when merged).
func (r *run) index(pkg *loader.Package) *pkgIndex {
	r.indexes.mu.Lock()
	e, ok := r.indexes.m[pkg]
	if !ok {
		e = &indexOnce{}
		r.indexes.m[pkg] = e
	}
	r.indexes.mu.Unlock()
	e.once.Do(func() {
		var ok bool
		if e.idx, ok = r.cache.Get(pkg); !ok {
			e.idx = r.buildIndex(pkg)
		}
	})
	r.problems.Add(e.idx.problems...)
	return e.idx
}

// buildIndex indexes pkg: the collector's values and the raw marker
// lines on goroutines of their own while this one indexes the
// declarations (all three only read the syntax), so that the index of a
// large package (config/v1 of openshift/api) holds up the CRDs waiting
// for it less.
func (r *run) buildIndex(pkg *loader.Package) *pkgIndex {
	idx := &pkgIndex{pkg: pkg, syntax: goload.SyntaxOf(pkg)}
	var err error
	var wg sync.WaitGroup
	wg.Go(func() { idx.raw = r.u.MarkerLines(pkg) })
	wg.Go(func() { idx.values, err = r.u.Collector.MarkersInPackage(pkg) })
	idx.indexDecls()
	wg.Wait()
	if err != nil {
		idx.failed = true
		idx.problems = r.markerErrors(pkg, err)
	}
	return idx
}

// indexDecls indexes the type declarations and struct fields of the
// package's syntax.
func (idx *pkgIndex) indexDecls() {
	idx.specAt = map[token.Pos]*ast.TypeSpec{}
	idx.fieldAt = map[token.Pos]*ast.Field{}
	for _, file := range idx.pkg.Syntax {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				spec := s.(*ast.TypeSpec)
				idx.specs = append(idx.specs, spec)
				idx.specAt[spec.Name.Pos()] = spec
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok || st.Fields == nil {
				return true
			}
			for _, f := range st.Fields.List {
				if len(f.Names) == 0 {
					if id := embeddedName(f.Type); id != nil {
						idx.fieldAt[id.Pos()] = f
					}
					continue
				}
				for _, n := range f.Names {
					idx.fieldAt[n.Pos()] = f
				}
			}
			return true
		})
	}
}

// embeddedName returns the identifier go/types positions an embedded field
// at: T in T, *T, pkg.T, T[X].
func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			return x.Sel
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// markerErrors turns the collector's parse errors into diagnostics naming
// the file, line and marker text.
func (r *run) markerErrors(pkg *loader.Package, err error) []diag.Diagnostic {
	var leaves []error
	flattenErrors(err, &leaves)
	var out []diag.Diagnostic
	for _, e := range leaves {
		var pe loader.PositionedError
		if errors.As(e, &pe) && pe.Pos.IsValid() {
			p := r.fset.Position(pe.Pos)
			text := markerpos.At(pkg, pe.Pos)
			msg := "invalid marker: " + pe.Error()
			if hint := strictmarkers.ExplainParseError(r.u.Registry, text); hint != "" {
				msg = hint
			}
			out = append(out, diag.Errorf(r.rel(p.Filename), p.Line, text, "%s", msg))
			continue
		}
		out = append(out, diag.Errorf(r.rel(pkgDir(pkg)), 0, "", "invalid marker in package %s: %v", pkg.PkgPath, e))
	}
	return out
}

func flattenErrors(err error, out *[]error) {
	var list loader.ErrList
	if errors.As(err, &list) {
		for _, e := range list {
			flattenErrors(e, out)
		}
		return
	}
	*out = append(*out, err)
}

func pkgDir(pkg *loader.Package) string {
	if len(pkg.GoFiles) > 0 {
		return filepath.Dir(pkg.GoFiles[0])
	}
	return pkg.PkgPath
}

// markerValue pairs a collector value with the line it was written on.
type markerValue struct {
	Value any
	// Text is the marker as written ("+name..."), Pos where it is.
	Text string
	Pos  token.Pos
}

// markersOf returns the values of marker name on node, each with its raw
// line when the raw association agrees with the collector's (it always
// should; otherwise the node's own position stands in).
func (idx *pkgIndex) markersOf(r *run, node ast.Node, name string, target markers.TargetType) []markerValue {
	vals := idx.values[node][name]
	if len(vals) == 0 {
		return nil
	}
	var raws []markerpos.Line
	for _, rm := range idx.raw[node] {
		if def := r.u.Registry.Lookup(rm.Text, target); def != nil && def.Name == name {
			raws = append(raws, rm)
		}
	}
	out := make([]markerValue, len(vals))
	for i, v := range vals {
		out[i] = markerValue{Value: v, Text: "+" + name, Pos: node.Pos()}
		if len(raws) == len(vals) {
			out[i].Text, out[i].Pos = raws[i].Text, raws[i].Pos
		}
	}
	return out
}
