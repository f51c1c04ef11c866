package markerpos

import (
	"go/ast"
	"go/token"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Node is a field or type declaration with the comment groups its markers
// may come from.
type Node struct {
	Node ast.Node
	Docs []*ast.CommentGroup
}

// Type is the Node of a type declaration.
func Type(info *markers.TypeInfo) Node {
	n := Node{Node: info.RawSpec}
	if info.RawDecl != nil {
		n.Docs = append(n.Docs, info.RawDecl.Doc)
	}
	if info.RawSpec != nil {
		n.Docs = append(n.Docs, info.RawSpec.Doc)
	}
	return n
}

// Field is the Node of a struct field.
func Field(f markers.FieldInfo) Node {
	n := Node{Node: f.RawField}
	if f.RawField != nil {
		n.Docs = append(n.Docs, f.RawField.Doc)
	}
	return n
}

// Locate finds the comment line holding the index-th value of marker name
// for node: in the node's doc comments or in the closest comment group
// above them (the two places controller-tools takes markers from). It
// returns the file, the line and the marker text without the comment
// syntax. When the line cannot be found it returns the node's own position
// and no text.
func Locate(pkg *loader.Package, node Node, name string, index int) (string, int, string) {
	if node.Node == nil || pkg.Fset == nil {
		return "", 0, ""
	}
	start := node.Node.Pos()
	var lines []*ast.Comment
	for _, g := range node.Docs {
		if g == nil {
			continue
		}
		if g.Pos() < start {
			start = g.Pos()
		}
		lines = append(lines, g.List...)
	}
	if f := fileOf(pkg, node.Node.Pos()); f != nil {
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
		if isMarkerLine(Text(c.Text), name) {
			matches = append(matches, c)
		}
	}
	if len(matches) > 0 {
		c := matches[0]
		if index < len(matches) {
			c = matches[index]
		}
		pos := pkg.Fset.Position(c.Pos())
		return pos.Filename, pos.Line, Text(c.Text)
	}
	pos := pkg.Fset.Position(node.Node.Pos())
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

// Text returns the text of a line comment with the comment syntax and
// surrounding space removed.
func Text(comment string) string {
	t := strings.TrimPrefix(comment, "//")
	t = strings.TrimPrefix(t, "/*")
	t = strings.TrimSuffix(t, "*/")
	return strings.TrimSpace(t)
}

func isMarkerLine(text, name string) bool {
	rest, ok := strings.CutPrefix(text, "+"+name)
	return ok && (rest == "" || rest[0] == ':' || rest[0] == '=')
}
