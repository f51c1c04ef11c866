package yamlfile

import (
	"errors"
	"sort"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

// Problems collects the problems of one file, each a diag.Diagnostic of
// error severity whose Subject is the dotted key at fault.
type Problems struct {
	File string
	list []diag.Diagnostic
}

// Addf adds a problem at line (0 for the whole file) about key ("" for
// none).
func (ps *Problems) Addf(line int, key, format string, args ...any) {
	ps.list = append(ps.list, diag.Errorf(ps.File, line, key, format, args...))
}

// Len is the number of problems so far.
func (ps *Problems) Len() int { return len(ps.list) }

// Err returns the problems joined (errors.Join: one per line of its text,
// each reachable through diag.FromError with its position), sorted by line with the problems of one line in the order
// they were found, or nil when there are none.
func (ps *Problems) Err() error {
	if len(ps.list) == 0 {
		return nil
	}
	sorted := append([]diag.Diagnostic(nil), ps.list...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Line < sorted[j].Line })
	errs := make([]error, len(sorted))
	for i, d := range sorted {
		errs[i] = d
	}
	return errors.Join(errs...)
}
