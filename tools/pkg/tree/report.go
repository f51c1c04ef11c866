package tree

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// Describe renders changes for a --verify report: one headline per file
// naming it relative to base and what is wrong, followed for changed files
// by a unified diff (three lines of context) from the disk content to the
// expected content.
func Describe(changes []Change, base string) string {
	var b strings.Builder
	for _, c := range changes {
		name := Rel(base, c.Path)
		switch c.Kind {
		case Create:
			fmt.Fprintf(&b, "%s is missing\n", name)
		case Update:
			fmt.Fprintf(&b, "%s is out of date:\n", name)
			b.WriteString(UnifiedDiff(name, c.Old, c.New))
		case Delete:
			fmt.Fprintf(&b, "%s should not exist (need to remove)\n", name)
		case DeleteDir:
			fmt.Fprintf(&b, "%s/ is stale (need to remove the directory)\n", name)
		}
	}
	return b.String()
}

// UnifiedDiff returns a unified diff turning old into new, labelled with
// name, or "" when they are equal.
func UnifiedDiff(name string, old, new []byte) string {
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A:        difflib.SplitLines(string(old)),
		B:        difflib.SplitLines(string(new)),
		FromFile: name + " (on disk)",
		ToFile:   name + " (expected)",
		Context:  3,
	})
	if err != nil {
		return fmt.Sprintf("(cannot diff %s: %v)\n", name, err)
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text
}

// Rel returns p relative to base when p lies below it, else p unchanged.
func Rel(base, p string) string {
	b, err := filepath.Abs(base)
	if err != nil {
		return p
	}
	r, err := filepath.Rel(b, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return p
	}
	return r
}
