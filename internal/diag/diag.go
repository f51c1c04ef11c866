package diag

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Severity says whether a Diagnostic fails the run.
type Severity int

const (
	// Error fails the run.
	Error Severity = iota
	// Warning is printed but does not fail the run.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Position is where a problem is: a file and, when known, a 1-based line.
// It renders "file:line", "file" without a line, and "" without a file
// (a line alone points nowhere). Code that names a place in a message
// formats it through String, so that every place reads the same.
type Position struct {
	File string
	Line int
}

func (p Position) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line > 0:
		return p.File + ":" + strconv.Itoa(p.Line)
	default:
		return p.File
	}
}

// Diagnostic is one problem found in the input: the one type every module
// (root, tools, apitest) reports a file:line problem with, from the Go
// sources' markers to the YAML configuration and suite files.
type Diagnostic struct {
	Severity Severity
	// File is the path of the file at fault, relative to the base directory
	// when the reporter knows it.
	File string
	// Line is the 1-based line in File, or 0 when it does not apply.
	Line int
	// Subject is the marker, key or object the problem is about, e.g.
	// "+openshift:enable:FeatureGate=Foo" or "payloadCRDs.include".
	// Optional.
	Subject string
	// Message says what is wrong, as a sentence without a trailing period.
	Message string
	// Strict marks a finding of strict mode: input the reference accepts
	// but that is most likely a mistake (an unknown marker or argument).
	// It is an error with --strict-markers, a warning without, and a
	// strict baseline can accept it.
	Strict bool
}

// Position returns the file and line of the diagnostic.
func (d Diagnostic) Position() Position { return Position{File: d.File, Line: d.Line} }

// String renders the diagnostic as "file:line: subject: message", each part
// left out when it is empty. This is the one rendering of a problem in
// every command's output.
func (d Diagnostic) String() string {
	var b strings.Builder
	if at := d.Position().String(); at != "" {
		b.WriteString(at)
		b.WriteString(": ")
	}
	if d.Subject != "" {
		b.WriteString(d.Subject)
		b.WriteString(": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Error makes a Diagnostic usable as an error value.
func (d Diagnostic) Error() string { return d.String() }

// Errorf builds an error-severity Diagnostic.
func Errorf(file string, line int, subject, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, File: file, Line: line, Subject: subject, Message: fmt.Sprintf(format, args...)}
}

// Warningf builds a warning-severity Diagnostic.
func Warningf(file string, line int, subject, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Warning, File: file, Line: line, Subject: subject, Message: fmt.Sprintf(format, args...)}
}

// List accumulates diagnostics. It is safe for concurrent use. The zero
// value is ready to use.
type List struct {
	mu    sync.Mutex
	items []Diagnostic
	seen  map[string]bool
}

// Add records diagnostics, dropping exact duplicates (the same problem found
// while generating for several gate sets is reported once).
func (l *List) Add(ds ...Diagnostic) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	for _, d := range ds {
		key := d.Severity.String() + "\x00" + d.String()
		if l.seen[key] {
			continue
		}
		l.seen[key] = true
		l.items = append(l.items, d)
	}
}

// AddError records err. A Diagnostic or *Diagnostic (or a joined error of
// them) keeps its position; any other error becomes a Diagnostic with only
// a message.
func (l *List) AddError(err error) {
	l.Add(FromError(err)...)
}

// FromError returns the diagnostics err holds: one per leaf of a joined
// error (Flatten), a Diagnostic or *Diagnostic as it is, any other error as
// an error-severity Diagnostic with only its message.
func FromError(err error) []Diagnostic {
	var out []Diagnostic
	for _, e := range Flatten(err) {
		var d Diagnostic
		var pd *Diagnostic
		switch {
		case errors.As(e, &d):
			out = append(out, d)
		case errors.As(e, &pd) && pd != nil:
			out = append(out, *pd)
		default:
			out = append(out, Diagnostic{Severity: Error, Message: e.Error()})
		}
	}
	return out
}

// Flatten returns the leaves of err: the errors a joined error (one with
// Unwrap() []error, such as errors.Join returns) holds, at any depth, or
// err itself. A nil error has none.
func Flatten(err error) []error {
	if err == nil {
		return nil
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range joined.Unwrap() {
		out = append(out, Flatten(e)...)
	}
	return out
}

// Items returns the diagnostics sorted by file, line, then text, so that the
// order does not depend on scheduling.
func (l *List) Items() []Diagnostic {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]Diagnostic(nil), l.items...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.String() < b.String()
	})
	return out
}

// HasErrors reports whether any error-severity diagnostic was recorded.
func (l *List) HasErrors() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, d := range l.items {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// ErrorCount returns the number of error-severity diagnostics recorded.
func (l *List) ErrorCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, d := range l.items {
		if d.Severity == Error {
			n++
		}
	}
	return n
}

// Err returns nil when the list holds no errors, otherwise an error whose
// text lists every error, one per line.
func (l *List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	// Joined Diagnostics print one per line and keep their positions, so
	// that a List receiving the error through AddError recognises them
	// (and drops the ones it already holds).
	var errs []error
	for _, d := range l.Items() {
		if d.Severity == Error {
			errs = append(errs, d)
		}
	}
	return errors.Join(errs...)
}

// Demote turns every error into a warning. It serves checks a repository
// has not opted in to, whose findings are reported but do not fail.
func (l *List) Demote() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := range l.items {
		l.items[i].Severity = Warning
	}
}

// Filter calls fn on every diagnostic in the order they were added; fn may
// change it (e.g. demote it) and returns false to drop it.
func (l *List) Filter(fn func(d *Diagnostic) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.items[:0]
	for _, d := range l.items {
		if fn(&d) {
			kept = append(kept, d)
		}
	}
	l.items = kept
}

// MarkStrict marks every diagnostic as a strict-mode finding.
func (l *List) MarkStrict() {
	l.Filter(func(d *Diagnostic) bool { d.Strict = true; return true })
}

// SettleStrict applies the strict-marker mode to the strict-mode findings
// of l (Diagnostic.Strict) that are errors: with strict false they become
// warnings; otherwise accept, when not nil, is asked about each and returns
// true to accept the finding (a strict baseline), which drops it from l.
func (l *List) SettleStrict(strict bool, accept func(Diagnostic) bool) {
	l.Filter(func(d *Diagnostic) bool {
		if !d.Strict || d.Severity != Error {
			return true
		}
		if !strict {
			d.Severity = Warning
			return true
		}
		return accept == nil || !accept(*d)
	})
}
