package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// strictBaselineCommand writes the baseline of the tree's current
// strict-mode findings. It runs every stage like crd-manifests --verify,
// but writes only the baseline file and does not care about stale outputs.
func strictBaselineCommand(opts *options) *cobra.Command {
	return &cobra.Command{
		Use:   "strict-baseline",
		Short: "Write " + baseline.FileName + " at --base-dir, accepting every current strict-mode finding",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.writeBaseline, opts.strict, opts.verify = true, true, true
			return run(opts, allStages)
		},
	}
}

// baselinePath is the baseline file of the run's base directory.
func (s *runState) baselinePath() string {
	base := s.opts.baseDir
	if s.disc != nil {
		base = s.disc.BaseDir
	}
	return filepath.Join(base, baseline.FileName)
}

// readBaseline reads the baseline of a strict run, if the tree has one.
func (s *runState) readBaseline() error {
	if !s.opts.strict || s.opts.writeBaseline {
		return nil
	}
	b, err := baseline.Read(s.baselinePath())
	s.baseline = b
	return err
}

// acceptStrict decides about a strict-mode error: strict-baseline records
// it, a baseline that lists it accepts it.
func (s *runState) acceptStrict(d diag.Diagnostic) bool {
	file := s.relFile(d.File)
	if s.opts.writeBaseline {
		s.findings = append(s.findings, baseline.Finding{File: file, Marker: d.Subject, Message: d.Message})
		return true
	}
	if s.baseline.Accept(file, d.Subject) {
		s.accepted++
		return true
	}
	return false
}

// relFile renders a diagnostic's file relative to the base directory with
// slashes, as baseline entries name it.
func (s *runState) relFile(file string) string {
	if s.disc != nil && filepath.IsAbs(file) {
		file = tree.Rel(s.disc.BaseDir, file)
	}
	return filepath.ToSlash(file)
}

// reportBaseline says how many findings the baseline accepted and warns
// about its stale entries. Entries can only be judged stale when every
// package and every stage ran.
func (s *runState) reportBaseline() {
	if s.baseline == nil {
		return
	}
	if s.stages == allStages && len(s.opts.groupVersions) == 0 {
		for _, e := range s.baseline.Stale() {
			s.problems.Add(diag.Warningf(s.baseline.Path, 0, "", "stale entry: %s: %s (%d occurrence(s)) matches no finding any more; run codegen strict-baseline to drop it",
				e.File, e.Marker, max(e.Count, 1)))
		}
	}
	if s.accepted > 0 {
		s.progress("codegen: %d strict-mode finding(s) accepted by %s", s.accepted, baseline.FileName)
	}
}

// writeBaselineFile writes the findings strict-baseline collected.
func (s *runState) writeBaselineFile() error {
	entries := baseline.Entries(s.findings)
	if err := baseline.Write(s.baselinePath(), entries); err != nil {
		return &exitError{code: ExitIO, msg: fmt.Sprintf("error: writing %s: %v", baseline.FileName, err)}
	}
	s.progress("codegen strict-baseline: %d finding(s) in %d entr(y/ies) written to %s", len(s.findings), len(entries), s.relFile(s.baselinePath()))
	return nil
}
