package watch

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strings"
)

// declHashes hashes the declarations of a Go file, to tell which types a
// save changed: each type declaration (key "type <Name>"; the specs of a
// grouped declaration share one hash) with the text before it back to the
// previous declaration, which holds its doc comment and any other comment
// block its markers may come from; and everything else under the key ""
// (package clause and doc, imports, functions, variables, constants and
// the text after the last declaration). nil when the file does not parse.
func declHashes(src []byte) map[string][32]byte {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return min(tf.Offset(p), len(src)) }
	out := map[string][32]byte{}
	prev := off(f.Name.End())
	other := append([]byte(nil), src[:prev]...)
	for _, d := range f.Decls {
		end := off(d.End())
		chunk := src[prev:end]
		prev = end
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			other = append(append(other, chunk...), 0)
			continue
		}
		sum := sha256.Sum256(chunk)
		for _, spec := range g.Specs {
			out["type "+spec.(*ast.TypeSpec).Name.Name] = sum
		}
	}
	out[""] = sha256.Sum256(append(other, src[prev:]...))
	return out
}

// changedTypes compares a file's declarations before and after a save:
// the names of the types whose declarations changed, or all == true when
// the change may concern any type of the package (something else
// changed, types were added, removed or renamed, or either side is
// unknown).
func changedTypes(before, after map[string][32]byte) (names []string, all bool) {
	if before == nil || after == nil || before[""] != after[""] || len(before) != len(after) {
		return nil, true
	}
	for k, h := range after {
		old, ok := before[k]
		if !ok {
			return nil, true
		}
		if old != h {
			names = append(names, strings.TrimPrefix(k, "type "))
		}
	}
	return names, false
}

// declEdits are the declarations the saves since the last cycle changed, by
// package directory.
type declEdits struct {
	// types are the changed type names of each directory.
	types map[string]map[string]bool
	// packages are the directories where any type may have changed.
	packages map[string]bool
}

func (e *declEdits) add(dir string, names []string, all bool) {
	if e.types == nil {
		e.types, e.packages = map[string]map[string]bool{}, map[string]bool{}
	}
	if all {
		e.packages[dir] = true
		return
	}
	if e.types[dir] == nil {
		e.types[dir] = map[string]bool{}
	}
	for _, n := range names {
		e.types[dir][n] = true
	}
}

// merge adds the edits of o.
func (e *declEdits) merge(o declEdits) {
	for dir := range o.packages {
		e.add(dir, nil, true)
	}
	for dir, names := range o.types {
		e.add(dir, slices.Collect(maps.Keys(names)), false)
	}
}

// has says whether a change in dir was recorded.
func (e declEdits) has(dir string) bool { return e.packages[dir] || e.types[dir] != nil }
