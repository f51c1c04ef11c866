package yamlfile

import (
	"fmt"
	"sort"
	"strings"
)

// Problem is one mistake in a file.
type Problem struct {
	File string
	// Line is 1-based, or 0 when the problem concerns the whole file.
	Line int
	// Key is the dotted key at fault, e.g. "payloadCRDs.include"; optional.
	Key     string
	Message string
}

// Error renders the problem as "file:line: key: message", the form every
// diagnostic of the tools takes: tools/pkg/diag renders its Diagnostic
// through it, so that the two cannot drift apart. Each part is left out
// when it is empty (the line when it is 0, the line too when the file is
// empty, since a line alone points nowhere).
func (p Problem) Error() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Key != "" {
		b.WriteString(p.Key)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Position returns the parts of the problem, so that callers can turn it
// into their own diagnostic type.
func (p Problem) Position() (file string, line int, subject, message string) {
	return p.File, p.Line, p.Key, p.Message
}

// Error holds every problem of one file, in line order.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap exposes each problem, as errors.Join does.
func (e *Error) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}

// Problems collects the problems of one file.
type Problems struct {
	File string
	list []Problem
}

// Addf adds a problem at line about key ("" for none).
func (ps *Problems) Addf(line int, key, format string, args ...any) {
	ps.list = append(ps.list, Problem{File: ps.File, Line: line, Key: key, Message: fmt.Sprintf(format, args...)})
}

// Len is the number of problems so far.
func (ps *Problems) Len() int { return len(ps.list) }

// Err returns the problems as an *Error, sorted by line (problems of one
// line in the order they were found), or nil when there are none.
func (ps *Problems) Err() error {
	if len(ps.list) == 0 {
		return nil
	}
	sorted := append([]Problem(nil), ps.list...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Line < sorted[j].Line })
	return &Error{Problems: sorted}
}
