package markerpos

import (
	"go/ast"
	"go/token"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Lines are the marker lines of one package, by the type declaration
// (*ast.TypeSpec) or struct field (*ast.Field) they belong to.
type Lines map[ast.Node][]Line

// Of returns the marker lines of pkg's syntax, associated with the rule of
// controller-tools' collector (see associate).
func Of(pkg *loader.Package) Lines {
	pkg.NeedSyntax()
	into := Lines{}
	for _, file := range pkg.Syntax {
		associate(file, into)
	}
	return into
}

// Named returns the lines of node that write marker name: "+name" followed
// by nothing, ':' or '='.
func (ls Lines) Named(node ast.Node, name string) []Line {
	var out []Line
	for _, l := range ls[node] {
		if IsMarker(l.Text, name) {
			out = append(out, l)
		}
	}
	return out
}

// IsMarker reports whether text (a marker line without the comment syntax)
// writes marker name.
func IsMarker(text, name string) bool {
	rest, ok := strings.CutPrefix(text, "+"+name)
	return ok && (rest == "" || rest[0] == ':' || rest[0] == '=')
}

// Text returns the text of a comment with the comment syntax and
// surrounding space removed.
func Text(comment string) string {
	t := strings.TrimPrefix(comment, "//")
	t = strings.TrimPrefix(t, "/*")
	t = strings.TrimSuffix(t, "*/")
	return strings.TrimSpace(t)
}

// At returns the marker written by the comment of pkg that starts at pos,
// or "" when none does.
func At(pkg *loader.Package, pos token.Pos) string {
	for _, f := range pkg.Syntax {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if c.Pos() == pos && strings.HasPrefix(c.Text, "//") {
					return strings.TrimSpace(c.Text[2:])
				}
			}
		}
	}
	return ""
}

// OnLine returns the marker written on file:line of pkg, or "".
func OnLine(pkg *loader.Package, fset *token.FileSet, file string, line int) string {
	for _, f := range pkg.Syntax {
		if fset.Position(f.Pos()).Filename != file {
			continue
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				if fset.Position(c.Pos()).Line == line {
					if t := Text(c.Text); strings.HasPrefix(t, "+") {
						return t
					}
				}
			}
		}
	}
	return ""
}

// Cache holds the Lines of every package asked for, computed once; it is
// safe for concurrent use. A run keeps one (in its goload.Universe) so that
// every stage locates markers from the same association.
type Cache struct {
	mu    sync.Mutex
	lines map[*loader.Package]Lines
}

// Of returns the lines of pkg, computing them on first use.
func (c *Cache) Of(pkg *loader.Package) Lines {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ls, ok := c.lines[pkg]; ok {
		return ls
	}
	if c.lines == nil {
		c.lines = map[*loader.Package]Lines{}
	}
	ls := Of(pkg)
	c.lines[pkg] = ls
	return ls
}

// Line is one marker comment line as written, with its position. The
// values come from the shared collector; lines only add what parsed values
// cannot tell: where the marker is (for diagnostics) and how it was
// spelled (a quoted gate name parses to the same value as an unquoted one).
type Line struct {
	// Text is the comment without "//", trimmed: it starts with "+".
	Text string
	Pos  token.Pos
}

// associate records, for every type declaration and every struct
// field of file (nested anonymous structs included), the marker comment
// lines that controller-tools' collector associates with it: the node's
// godoc block plus the closest other comment block above it that lies
// after the previous sibling (and is not that sibling's end-of-line
// comment). The order is the collector's: that block first, then godoc.
func associate(file *ast.File, into map[ast.Node][]Line) {
	groups := file.Comments
	prevEnd := file.Name.End()
	var prevTrailing *ast.CommentGroup
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if ok && gd.Tok == token.TYPE {
			if gd.Lparen == token.NoPos && len(gd.Specs) == 1 {
				spec := gd.Specs[0].(*ast.TypeSpec)
				into[spec] = blockMarkers(groups, prevEnd, prevTrailing, gd.Pos(), gd.Doc)
				associateStructFields(groups, spec.Type, into)
			} else {
				innerEnd := gd.Lparen
				var innerTrailing *ast.CommentGroup
				for _, s := range gd.Specs {
					spec := s.(*ast.TypeSpec)
					into[spec] = blockMarkers(groups, innerEnd, innerTrailing, spec.Pos(), spec.Doc)
					associateStructFields(groups, spec.Type, into)
					innerEnd, innerTrailing = spec.End(), spec.Comment
				}
			}
		}
		prevEnd, prevTrailing = decl.End(), trailingComment(decl)
	}
}

// trailingComment returns the end-of-line comment of a single-spec
// declaration, which the collector never gives to the next node.
func trailingComment(decl ast.Decl) *ast.CommentGroup {
	gd, ok := decl.(*ast.GenDecl)
	if !ok || gd.Lparen != token.NoPos || len(gd.Specs) != 1 {
		return nil
	}
	switch s := gd.Specs[0].(type) {
	case *ast.TypeSpec:
		return s.Comment
	case *ast.ValueSpec:
		return s.Comment
	case *ast.ImportSpec:
		return s.Comment
	}
	return nil
}

// associateStructFields records the markers of every field of every struct
// type literal within expr.
func associateStructFields(groups []*ast.CommentGroup, expr ast.Expr, into map[ast.Node][]Line) {
	ast.Inspect(expr, func(n ast.Node) bool {
		st, ok := n.(*ast.StructType)
		if !ok || st.Fields == nil {
			return true
		}
		prevEnd := st.Fields.Opening
		var prevTrailing *ast.CommentGroup
		for _, f := range st.Fields.List {
			into[f] = blockMarkers(groups, prevEnd, prevTrailing, f.Pos(), f.Doc)
			prevEnd, prevTrailing = f.End(), f.Comment
		}
		return true
	})
}

// blockMarkers returns the marker lines of the closest non-godoc comment
// group in (after, before) followed by those of doc.
func blockMarkers(groups []*ast.CommentGroup, after token.Pos, skip *ast.CommentGroup, before token.Pos, doc *ast.CommentGroup) []Line {
	var closest *ast.CommentGroup
	for _, g := range groups {
		if g.Pos() <= after || g == skip {
			continue
		}
		if g.End() > before {
			break
		}
		if g != doc {
			closest = g
		}
	}
	var out []Line
	if closest != nil && (doc == nil || closest.End() < doc.Pos()) {
		out = append(out, markerLines(closest)...)
	}
	if doc != nil {
		out = append(out, markerLines(doc)...)
	}
	return out
}

func markerLines(g *ast.CommentGroup) []Line {
	var out []Line
	for _, c := range g.List {
		if !strings.HasPrefix(c.Text, "//") {
			continue
		}
		text := strings.TrimSpace(c.Text[2:])
		if strings.HasPrefix(text, "+") {
			out = append(out, Line{Text: text, Pos: c.Pos()})
		}
	}
	return out
}

// Type returns the node the marker lines of a type declaration are
// associated with, or nil.
func Type(info *markers.TypeInfo) ast.Node {
	if info == nil || info.RawSpec == nil {
		return nil
	}
	return info.RawSpec
}

// Field returns the node the marker lines of a struct field are
// associated with, or nil.
func Field(f markers.FieldInfo) ast.Node {
	if f.RawField == nil {
		return nil
	}
	return f.RawField
}

// Locate returns the file, line and text of the index-th line of node that
// writes marker name (the first one when there are fewer). When node has
// no such line it returns node's own position and no text; for a nil node,
// nothing.
func (ls Lines) Locate(fset *token.FileSet, node ast.Node, name string, index int) (string, int, string) {
	if node == nil || fset == nil {
		return "", 0, ""
	}
	if lines := ls.Named(node, name); len(lines) > 0 {
		l := lines[0]
		if index < len(lines) {
			l = lines[index]
		}
		pos := fset.Position(l.Pos)
		return pos.Filename, pos.Line, l.Text
	}
	pos := fset.Position(node.Pos())
	return pos.Filename, pos.Line, ""
}
