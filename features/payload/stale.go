package payload

import (
	"bytes"
	"fmt"
	"strings"
)

// DifferenceKind says how a file on disk differs from what was rendered.
type DifferenceKind string

const (
	Changed DifferenceKind = "changed" // present with other content
	Missing DifferenceKind = "missing" // rendered but absent on disk
	Extra   DifferenceKind = "extra"   // on disk but not rendered
)

// Difference is one out-of-date file.
type Difference struct {
	Path string
	Kind DifferenceKind
	// Detail locates the change for Changed files (first differing line).
	Detail string
}

func (d Difference) String() string {
	if d.Detail == "" {
		return fmt.Sprintf("%s: %s", d.Kind, d.Path)
	}
	return fmt.Sprintf("%s: %s: %s", d.Kind, d.Path, d.Detail)
}

// StaleError is returned by the Verify functions when files on disk are not
// what would be generated. It lists every difference, sorted by path.
type StaleError struct {
	Differences []Difference
}

func (e *StaleError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d generated file(s) out of date; regenerate them:", len(e.Differences))
	for _, d := range e.Differences {
		b.WriteString("\n  ")
		b.WriteString(d.String())
	}
	return b.String()
}

// compareContent returns nil when have equals want, otherwise a Changed
// difference pointing at the first differing line.
func compareContent(path string, have, want []byte) *Difference {
	if bytes.Equal(have, want) {
		return nil
	}
	haveLines := strings.SplitAfter(string(have), "\n")
	wantLines := strings.SplitAfter(string(want), "\n")
	i := 0
	for i < len(haveLines) && i < len(wantLines) && haveLines[i] == wantLines[i] {
		i++
	}
	line := func(lines []string) string {
		if i >= len(lines) {
			return "<end of file>"
		}
		return fmt.Sprintf("%q", lines[i])
	}
	return &Difference{
		Path:   path,
		Kind:   Changed,
		Detail: fmt.Sprintf("line %d: have %s, want %s", i+1, line(haveLines), line(wantLines)),
	}
}
