package partialschemas

import (
	"go/ast"
	"go/token"
	"strings"
)

// rawMarker is one marker comment line as written, with its position. The
// values come from the shared collector; raw markers only add what parsed
// values cannot tell: where the marker is (for diagnostics) and how it was
// spelled (a quoted gate name parses to the same value as an unquoted one).
type rawMarker struct {
	// Text is the comment without "//", trimmed: it starts with "+".
	Text string
	Pos  token.Pos
}

// associateRawMarkers records, for every type declaration and every struct
// field of file (nested anonymous structs included), the marker comment
// lines that controller-tools' collector associates with it: the node's
// godoc block plus the closest other comment block above it that lies
// after the previous sibling (and is not that sibling's end-of-line
// comment). The order is the collector's: that block first, then godoc.
func associateRawMarkers(file *ast.File, into map[ast.Node][]rawMarker) {
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
func associateStructFields(groups []*ast.CommentGroup, expr ast.Expr, into map[ast.Node][]rawMarker) {
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
func blockMarkers(groups []*ast.CommentGroup, after token.Pos, skip *ast.CommentGroup, before token.Pos, doc *ast.CommentGroup) []rawMarker {
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
	var out []rawMarker
	if closest != nil && (doc == nil || closest.End() < doc.Pos()) {
		out = append(out, markerLines(closest)...)
	}
	if doc != nil {
		out = append(out, markerLines(doc)...)
	}
	return out
}

func markerLines(g *ast.CommentGroup) []rawMarker {
	var out []rawMarker
	for _, c := range g.List {
		if !strings.HasPrefix(c.Text, "//") {
			continue
		}
		text := strings.TrimSpace(c.Text[2:])
		if strings.HasPrefix(text, "+") {
			out = append(out, rawMarker{Text: text, Pos: c.Pos()})
		}
	}
	return out
}

// splitTopLevel splits s at every sep that is outside double quotes,
// backquotes and braces.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	inQuote, inBack, escaped := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case inQuote:
			if c == '\\' {
				escaped = true
			} else if c == '"' {
				inQuote = false
			}
		case inBack:
			if c == '`' {
				inBack = false
			}
		case c == '"':
			inQuote = true
		case c == '`':
			inBack = true
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// rawListElements splits a written list value ("a;b" or "{a,b}") into its
// elements as spelled, quotes included.
func rawListElements(value string) []string {
	v := strings.TrimSpace(value)
	if strings.HasPrefix(v, "{") && strings.HasSuffix(v, "}") {
		return trimAll(splitTopLevel(v[1:len(v)-1], ','))
	}
	return trimAll(splitTopLevel(v, ';'))
}

func trimAll(in []string) []string {
	for i := range in {
		in[i] = strings.TrimSpace(in[i])
	}
	return in
}

// rawArguments returns the written value of each argument of a marker with
// named arguments, e.g. for "+a:b:k1=v1,k2=v2" after the marker name "a:b".
// Only the first occurrence of a key is kept.
func rawArguments(text, name string) map[string]string {
	rest := strings.TrimPrefix(text, "+"+name)
	rest = strings.TrimPrefix(rest, ":")
	out := map[string]string{}
	for _, piece := range splitTopLevel(rest, ',') {
		key, value, _ := strings.Cut(piece, "=")
		key = strings.TrimSpace(key)
		if _, dup := out[key]; !dup && key != "" {
			out[key] = value
		}
	}
	return out
}

// rawAnonymousValue returns what follows "=" in a marker with a single
// unnamed argument, e.g. "Foo" for "+openshift:enable:FeatureGate=Foo".
func rawAnonymousValue(text, name string) string {
	rest := strings.TrimPrefix(text, "+"+name)
	_, value, _ := strings.Cut(rest, "=")
	return value
}

func isQuoted(s string) bool {
	return strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "`")
}
