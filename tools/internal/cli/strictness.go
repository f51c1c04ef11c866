package cli

import "github.com/gatedcrd/gatedcrd/tools/pkg/diag"

// settleStrict applies --strict-markers to the strict-mode findings of l
// (diag.Diagnostic.Strict): without it they are warnings. accept, when not
// nil, is asked about every strict error that remains; it returns true to
// accept the finding, which drops it from l.
func settleStrict(l *diag.List, strict bool, accept func(diag.Diagnostic) bool) {
	l.Filter(func(d *diag.Diagnostic) bool {
		if !d.Strict || d.Severity != diag.Error {
			return true
		}
		if !strict {
			d.Severity = diag.Warning
			return true
		}
		return accept == nil || !accept(*d)
	})
}

// hasErrors settles the strict findings collected so far and reports
// whether any error remains.
func (s *runState) hasErrors() bool {
	settleStrict(s.problems, s.opts.strict, s.acceptStrict)
	return s.problems.HasErrors()
}
