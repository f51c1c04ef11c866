package schemapatch

import (
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/markerpos"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// problemSink turns what goes wrong into positioned diagnostics: file
// relative to the base directory, line, the marker written on that line when
// there is one, and the message.
type problemSink struct {
	list *diag.List
	base string
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
func (s *problemSink) markerProblems(pkg *loader.Package, node markerpos.Node, problems []markerProblem) {
	for _, p := range problems {
		file, line, text := markerpos.Locate(pkg, node, p.name, p.index)
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
		for _, e := range reportable(pkg) {
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

// reportable returns the errors recorded on pkg that are worth reporting.
// Type-checking errors are not: controller-tools type-checks declarations
// only, against placeholder imports, which yields spurious errors in
// dependencies (upstream's own generators skip them too). A real type error
// in an API type surfaces as a positioned schema error ("unknown type").
func reportable(pkg *loader.Package) []packages.Error {
	var out []packages.Error
	for _, e := range pkg.Errors {
		if e.Kind != packages.TypeError {
			out = append(out, e)
		}
	}
	return out
}

// loaderError converts one recorded error. The boolean reports whether it
// has a source position.
func (s *problemSink) loaderError(pkg *loader.Package, e packages.Error) (diag.Diagnostic, bool) {
	file, line := splitPos(e.Pos)
	if line == 0 {
		return diag.Errorf("", 0, "package "+pkg.PkgPath, "%s", e.Msg), false
	}
	return diag.Errorf(s.rel(file), line, markerAt(pkg, file, line), "%s", e.Msg), true
}

// splitPos splits a go/packages position "file:line:col" or "file:line".
// Positions without a line ("pkg/path:-") yield line 0.
func splitPos(pos string) (string, int) {
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

// markerAt returns the marker written on file:line of pkg, or "".
func markerAt(pkg *loader.Package, file string, line int) string {
	if pkg.Fset == nil {
		return ""
	}
	for _, f := range pkg.Syntax {
		if pkg.Fset.Position(f.Pos()).Filename != file {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if pkg.Fset.Position(c.Pos()).Line == line {
					if t := markerpos.Text(c.Text); strings.HasPrefix(t, "+") {
						return t
					}
				}
			}
		}
	}
	return ""
}
