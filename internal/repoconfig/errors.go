package repoconfig

import (
	"fmt"
	"strings"
)

// Problem is one mistake in the configuration file.
type Problem struct {
	File string
	// Line is 1-based, or 0 when it does not apply.
	Line int
	// Key is the dotted key at fault, e.g. "payloadCRDs.include"; optional.
	Key     string
	Message string
}

// Error renders the problem as "file:line: key: message", the form every
// diagnostic of the tools takes.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
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

// Error holds every problem of one file, in file order.
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
