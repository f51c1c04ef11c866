package compatlevel

import (
	"bytes"
	"go/ast"
	"go/token"
	"sort"
	"strings"
)

// typeDecl is one type declaration and the file it is in.
type typeDecl struct {
	fset *token.FileSet
	file *ast.File
	src  []byte
	decl *ast.GenDecl
	spec *ast.TypeSpec
}

// doc is the comment block adjacent to the type: the spec's own comment
// inside a parenthesised declaration, else the declaration's.
func (t typeDecl) doc() *ast.CommentGroup {
	if t.spec.Doc != nil || t.decl.Lparen.IsValid() {
		return t.spec.Doc
	}
	return t.decl.Doc
}

// start is where the type's comment block would begin.
func (t typeDecl) start() token.Pos {
	if d := t.doc(); d != nil {
		return d.Pos()
	}
	if t.decl.Lparen.IsValid() {
		return t.spec.Pos()
	}
	return t.decl.Pos()
}

// markerComments are the lines the markers of the type are read from: its
// doc block and the closest detached block above it, the rule
// controller-tools applies to type markers.
func (t typeDecl) markerComments() []*ast.Comment {
	var out []*ast.Comment
	doc := t.doc()
	start := t.start()
	var detached *ast.CommentGroup
	for _, g := range t.file.Comments {
		if g == doc || g.End() >= start {
			continue
		}
		if prevDeclEnd(t.file, start) < g.Pos() {
			detached = g
		}
	}
	if detached != nil {
		out = append(out, detached.List...)
	}
	if doc != nil {
		out = append(out, doc.List...)
	}
	return out
}

// prevDeclEnd is the end of the last declaration (or the package clause)
// before pos.
func prevDeclEnd(f *ast.File, pos token.Pos) token.Pos {
	end := f.Name.End()
	for _, d := range f.Decls {
		if d.End() < pos && d.End() > end {
			end = d.End()
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Lparen.IsValid() && gd.Pos() < pos && pos < gd.End() {
			// Inside a parenthesised declaration: the previous spec ends
			// the search.
			for _, s := range gd.Specs {
				if s.End() < pos && s.End() > end {
					end = s.End()
				}
			}
			if gd.Lparen > end {
				end = gd.Lparen
			}
		}
	}
	return end
}

// edit replaces src[off:off+del] with ins.
type edit struct {
	off, del int
	ins      string
}

// edits make the doc block carry exactly one compatibility line, want.
func (t typeDecl) edits(want string) []edit {
	wantComment := "// " + want
	doc := t.doc()
	if doc == nil {
		off := t.lineStart(t.start())
		return []edit{{off: off, ins: t.indent(t.start()) + wantComment + "\n"}}
	}
	var existing []*ast.Comment
	firstMarker := -1
	for i, c := range doc.List {
		text := commentText(c)
		if strings.HasPrefix(text, linePrefix) {
			existing = append(existing, c)
		} else if firstMarker < 0 && strings.HasPrefix(text, "+") {
			firstMarker = i
		}
	}
	if len(existing) > 0 {
		var out []edit
		if existing[0].Text != wantComment {
			out = append(out, edit{off: t.offset(existing[0].Pos()), del: len(existing[0].Text), ins: wantComment})
		}
		for _, c := range existing[1:] {
			start := t.lineStart(c.Pos())
			out = append(out, edit{off: start, del: t.offset(c.End()) + 1 - start})
		}
		return out
	}
	indent := t.indent(doc.Pos())
	if firstMarker >= 0 {
		c := doc.List[firstMarker]
		ins := wantComment + "\n" + indent
		if firstMarker > 0 && isProse(doc.List[firstMarker-1]) {
			ins = "//\n" + indent + ins
		}
		return []edit{{off: t.offset(c.Pos()), ins: ins}}
	}
	last := doc.List[len(doc.List)-1]
	ins := "\n" + indent + wantComment
	if isProse(last) {
		ins = "\n" + indent + "//" + ins
	}
	return []edit{{off: t.offset(last.End()), ins: ins}}
}

// isProse reports whether c is a non-empty comment line that is not a
// marker.
func isProse(c *ast.Comment) bool {
	text := commentText(c)
	return text != "" && !strings.HasPrefix(text, "+")
}

func (t typeDecl) offset(p token.Pos) int { return t.fset.Position(p).Offset }

// lineStart is the offset of the first byte of p's line.
func (t typeDecl) lineStart(p token.Pos) int {
	off := t.offset(p)
	return bytes.LastIndexByte(t.src[:off], '\n') + 1
}

// indent is the white space before p on its line.
func (t typeDecl) indent(p token.Pos) string {
	return string(t.src[t.lineStart(p):t.offset(p)])
}

// apply performs non-overlapping edits on src.
func apply(src []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off > edits[j].off })
	out := append([]byte(nil), src...)
	for _, e := range edits {
		out = append(out[:e.off], append([]byte(e.ins), out[e.off+e.del:]...)...)
	}
	return out
}
