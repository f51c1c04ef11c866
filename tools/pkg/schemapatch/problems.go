package schemapatch

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
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

// markedNode is a field or type declaration with the comment groups its
// markers may come from.
type markedNode struct {
	node ast.Node
	docs []*ast.CommentGroup
}

func typeNode(info *markers.TypeInfo) markedNode {
	n := markedNode{node: info.RawSpec}
	if info.RawDecl != nil {
		n.docs = append(n.docs, info.RawDecl.Doc)
	}
	if info.RawSpec != nil {
		n.docs = append(n.docs, info.RawSpec.Doc)
	}
	return n
}

func fieldNode(f markers.FieldInfo) markedNode {
	n := markedNode{node: f.RawField}
	if f.RawField != nil {
		n.docs = append(n.docs, f.RawField.Doc)
	}
	return n
}

// markerProblems reports problems with the marker values of node.
func (s *problemSink) markerProblems(pkg *loader.Package, node markedNode, problems []markerProblem) {
	for _, p := range problems {
		file, line, text := locateMarker(pkg, node, p.name, p.index)
		subject := text
		if subject == "" {
			subject = "+" + p.name
		}
		s.add(diag.Errorf(s.rel(file), line, subject, "%v", p.err))
	}
}

// locateMarker finds the comment line holding the index-th value of marker
// name for node: in the node's doc comments or in the closest comment group
// above them (the two places controller-tools takes markers from). When the
// line cannot be found it returns the node's own position and no text.
func locateMarker(pkg *loader.Package, node markedNode, name string, index int) (string, int, string) {
	if node.node == nil || pkg.Fset == nil {
		return "", 0, ""
	}
	start := node.node.Pos()
	var lines []*ast.Comment
	for _, g := range node.docs {
		if g == nil {
			continue
		}
		if g.Pos() < start {
			start = g.Pos()
		}
		lines = append(lines, g.List...)
	}
	if f := fileOf(pkg, node.node.Pos()); f != nil {
		var closest *ast.CommentGroup
		for _, g := range f.Comments {
			if g.End() < start {
				closest = g
			}
		}
		// The detached block counts only when no code lies between it and
		// the node: above a field, the closest block may be the previous
		// field's doc or trailing comment, whose markers are not ours.
		if closest != nil && pkg.Fset.Position(closest.Pos()).Line > pkg.Fset.Position(lastCodeBefore(f, start)).Line {
			lines = append(lines, closest.List...)
		}
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].Pos() < lines[j].Pos() })
	var matches []*ast.Comment
	for _, c := range lines {
		if isMarkerLine(markerText(c.Text), name) {
			matches = append(matches, c)
		}
	}
	if len(matches) > 0 {
		c := matches[0]
		if index < len(matches) {
			c = matches[index]
		}
		pos := pkg.Fset.Position(c.Pos())
		return pos.Filename, pos.Line, markerText(c.Text)
	}
	pos := pkg.Fset.Position(node.node.Pos())
	return pos.Filename, pos.Line, ""
}

// lastCodeBefore returns the end of the last syntax node (or attached
// comment) that ends before pos, or the file's start.
func lastCodeBefore(f *ast.File, pos token.Pos) token.Pos {
	last := f.Package
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if n.End() <= pos && n.End() > last {
			last = n.End()
		}
		return n.Pos() < pos
	})
	return last
}

func fileOf(pkg *loader.Package, pos token.Pos) *ast.File {
	for _, f := range pkg.Syntax {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// markerText returns the text of a line comment with the comment syntax and
// surrounding space removed.
func markerText(comment string) string {
	t := strings.TrimPrefix(comment, "//")
	t = strings.TrimPrefix(t, "/*")
	t = strings.TrimSuffix(t, "*/")
	return strings.TrimSpace(t)
}

func isMarkerLine(text, name string) bool {
	rest, ok := strings.CutPrefix(text, "+"+name)
	return ok && (rest == "" || rest[0] == ':' || rest[0] == '=')
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
					if t := markerText(c.Text); strings.HasPrefix(t, "+") {
						return t
					}
				}
			}
		}
	}
	return ""
}
