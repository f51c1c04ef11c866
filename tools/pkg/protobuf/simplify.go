package protobuf

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
)

// gofmtSimplify formats src the way `gofmt -s` does: the three gofmt
// simplifications (element types elided in composite literals, s[a:len(s)]
// shortened to s[a:], blank range variables dropped) followed by canonical
// formatting. The standard library exposes formatting but not the
// simplifier, so the rules are implemented here.
func gofmtSimplify(filename string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	ast.Inspect(f, simplifyNode)
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func simplifyNode(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.CompositeLit:
		var keyType, eltType ast.Expr
		switch t := n.Type.(type) {
		case *ast.ArrayType:
			eltType = t.Elt
		case *ast.MapType:
			keyType, eltType = t.Key, t.Value
		}
		if eltType == nil {
			return true
		}
		for i, e := range n.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if keyType != nil {
					kv.Key = elideType(keyType, kv.Key)
				}
				kv.Value = elideType(eltType, kv.Value)
				continue
			}
			n.Elts[i] = elideType(eltType, e)
		}
	case *ast.SliceExpr:
		// s[a:len(s)] -> s[a:]
		if n.Max != nil || n.Slice3 {
			return true
		}
		s, ok := n.X.(*ast.Ident)
		if !ok || s.Obj == nil {
			return true
		}
		call, ok := n.High.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
			return true
		}
		fn, ok := call.Fun.(*ast.Ident)
		if !ok || fn.Name != "len" || fn.Obj != nil {
			return true
		}
		if arg, ok := call.Args[0].(*ast.Ident); ok && arg.Obj == s.Obj {
			n.High = nil
		}
	case *ast.RangeStmt:
		// for x, _ = range v -> for x = range v; for _ = range v -> for range v
		if isBlank(n.Value) {
			n.Value = nil
		}
		if isBlank(n.Key) && n.Value == nil {
			n.Key = nil
		}
	}
	return true
}

// elideType drops the explicit type of a composite literal element (or of
// the literal behind &) when it repeats the container's element type.
func elideType(typ, x ast.Expr) ast.Expr {
	switch e := x.(type) {
	case *ast.CompositeLit:
		if e.Type != nil && sameExpr(typ, e.Type) {
			e.Type = nil
		}
	case *ast.UnaryExpr:
		ptr, ok := typ.(*ast.StarExpr)
		if !ok || e.Op != token.AND {
			break
		}
		if lit, ok := e.X.(*ast.CompositeLit); ok && lit.Type != nil && sameExpr(ptr.X, lit.Type) {
			lit.Type = nil
			return lit
		}
	}
	return x
}

func sameExpr(a, b ast.Expr) bool { return types.ExprString(a) == types.ExprString(b) }

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
