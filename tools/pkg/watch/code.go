package watch

import (
	"crypto/sha256"
	"fmt"
	"go/scanner"
	"go/token"
	"hash"
	"strings"
)

// tagPrefix starts the comment tags deepcopy-gen and the model name
// generator read (+k8s:deepcopy-gen, +k8s:deepcopy-gen:interfaces,
// +k8s:openapi-model-package): of a file's comments, only the lines
// holding one can change their output.
const tagPrefix = "+k8s:"

// codeHash hashes what of a Go file the gengo generators' output can
// depend on: its tokens but for comments, and each comment line holding a
// +k8s: tag with its distance in lines to the next token (a tag applies
// to the declaration its comment block precedes, and a blank line moves
// it to the block before). A save that leaves it as it was, a doc-comment
// edit, leaves the deepcopy and model name files as they are. ok is false
// when the file does not scan.
func codeHash(src []byte) (sum [32]byte, ok bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var errs int
	var s scanner.Scanner
	s.Init(f, src, func(token.Position, string) { errs++ }, scanner.ScanComments)
	h := sha256.New()
	var tags []tagLine // tag lines waiting for the next token
	for {
		pos, tok, lit := s.Scan()
		line := f.Line(pos)
		if tok == token.COMMENT {
			for i, l := range strings.Split(lit, "\n") {
				if strings.Contains(l, tagPrefix) {
					tags = append(tags, tagLine{line + i, strings.TrimSpace(l)})
				}
			}
			continue
		}
		next := line
		if tok == token.EOF {
			next = -1
		}
		flushTags(h, tags, next)
		tags = tags[:0]
		if tok == token.EOF {
			break
		}
		fmt.Fprintf(h, "%d %s\x00", tok, lit)
	}
	if errs > 0 {
		return sum, false
	}
	copy(sum[:], h.Sum(nil))
	return sum, true
}

// tagLine is a comment line holding a +k8s: tag.
type tagLine struct {
	line int
	text string
}

// flushTags hashes the tag lines before a token on line next (-1: the end
// of the file).
func flushTags(h hash.Hash, tags []tagLine, next int) {
	for _, t := range tags {
		d := -1
		if next >= 0 {
			d = next - t.line
		}
		fmt.Fprintf(h, "tag %d %s\x00", d, t.text)
	}
}
