// Package genfiles recognises the generated Go files that no CRD stage
// needs. Next to API types, go-to-protobuf writes a generated.pb.go
// holding nothing but marshalling methods, their helpers and registration
// (k8s.io/api/core/v1's is 1.6 MB, two thirds of the package, and
// openshift/api has 15 of them), and the swagger-doc generator a
// *swagger_doc_generated.go of SwaggerDoc methods returning map literals of
// the field documentation (about 0.3 MB for k8s.io/api/core/v1 and for
// openshift/api's config/v1, 1.5 MB over openshift/api). Parsing them cost
// more than the rest of a group-version's package load, for declarations
// no schema depends on.
//
// A file is left out of the load only when nothing in it can change what
// the stages generate: it declares no type and no constant (schemas and
// enum values come from those), has no method named MarshalJSON or
// MarshalText (the two interfaces controller-tools looks for to decide a
// type's schema) and carries no marker comment. Functions, methods and
// variables are all it may declare; the type check of the package, which
// skips function bodies, loses nothing a schema reads. Only files named
// as those generators name them are considered (Candidate), so that no
// other file has to be read to decide.
package genfiles

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Candidate reports whether a Go file is named as the generators of
// protobuf code and swagger documentation name their files.
func Candidate(name string) bool {
	return strings.HasSuffix(name, ".pb.go") || strings.HasSuffix(name, "swagger_doc_generated.go")
}

// Unneeded reports whether the Go file name with content src is generated
// code that no stage needs: see the package documentation. It reads the
// file's tokens, which costs a fifteenth of parsing it; a file it cannot
// scan is needed, so that parsing reports the error.
func Unneeded(name string, src []byte) bool {
	if !Candidate(name) {
		return false
	}
	scanned := true
	var s scanner.Scanner
	file := token.NewFileSet().AddFile(name, -1, len(src))
	s.Init(file, src, func(token.Position, string) { scanned = false }, scanner.ScanComments)
	depth := 0
	for scanned {
		_, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return scanned
		case token.LBRACE, token.LPAREN, token.LBRACK:
			depth++
		case token.RBRACE, token.RPAREN, token.RBRACK:
			depth--
		case token.TYPE, token.CONST:
			if depth == 0 {
				return false
			}
		case token.IDENT:
			if lit == "MarshalJSON" || lit == "MarshalText" {
				return false
			}
		case token.COMMENT:
			if hasMarkerLine(lit) {
				return false
			}
		}
	}
	return false
}

// hasMarkerLine reports whether a comment has a line that starts with "+"
// (a marker, or an old-style build constraint, which is harmless but rare
// enough to keep the rule simple).
func hasMarkerLine(comment string) bool {
	text := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(comment, "//"), "/*"), "*/")
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimLeft(strings.TrimSpace(line), "*/ \t")
		if strings.HasPrefix(line, "+") {
			return true
		}
	}
	return false
}
