package schemapatch

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// problemSink turns what goes wrong into positioned diagnostics: file
// relative to the base directory, line, the marker written on that line when
// there is one, and the message.
type problemSink struct {
	list *diag.List
	base string
	// universe locates markers (its one marker association and FileSet).
	universe *goload.Universe
	// errors counts error diagnostics added through the sink.
	errors int
}

func (s *problemSink) add(ds ...diag.Diagnostic) {
	for _, d := range ds {
		if d.Severity == diag.Error {
			s.errors++
		}
	}
	s.list.Add(ds...)
}

func (s *problemSink) rel(file string) string {
	if file == "" {
		return ""
	}
	return tree.Rel(s.base, file)
}

// markerProblems reports problems with the marker values of node.
func (s *problemSink) markerProblems(pkg *loader.Package, node ast.Node, problems []markerProblem) {
	for _, p := range problems {
		file, line, text := s.universe.MarkerLines(pkg).Locate(s.universe.Fset, node, p.name, p.index)
		subject := text
		if subject == "" {
			subject = "+" + p.name
		}
		s.add(diag.Errorf(s.rel(file), line, subject, "%v", p.err))
	}
}

// loaderErrors reports the errors controller-tools and go/packages recorded
// on pkgs. The same error recorded again by a later generation yields the
// same diagnostic, which the list drops.
func (s *problemSink) loaderErrors(pkgs []*loader.Package) {
	for _, pkg := range pkgs {
		positioned := false
		var ds []diag.Diagnostic
		for _, e := range goload.ReportableErrors(pkg) {
			d, ok := s.loaderError(pkg, e)
			positioned = positioned || ok
			ds = append(ds, d)
		}
		for _, d := range ds {
			// "unknown type" follows from a package that could not be
			// indexed; the positioned error saying why is enough.
			if positioned && d.File == "" && strings.HasPrefix(d.Message, "unknown type ") {
				continue
			}
			s.add(d)
		}
	}
}

// loaderError converts one recorded error. The boolean reports whether it
// has a source position.
func (s *problemSink) loaderError(pkg *loader.Package, e packages.Error) (diag.Diagnostic, bool) {
	file, line := goload.SplitPos(e.Pos)
	if line == 0 {
		return diag.Errorf("", 0, "package "+pkg.PkgPath, "%s", e.Msg), false
	}
	return diag.Errorf(s.rel(file), line, markerpos.OnLine(pkg, s.universe.Fset, file, line), "%s", e.Msg), true
}
