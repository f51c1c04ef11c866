package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
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
			opts.writeBaseline, opts.strict, opts.strictSet, opts.verify = true, true, true, true
			return run(opts, pipeline.AllStages)
		},
	}
}

// strictBaseline is what a run does with the strict baseline: read it
// once discovery found the tree, accept the findings it lists (or, for
// strict-baseline, record every finding), and report on it at the end.
type strictBaseline struct {
	opts *options
	base string
	// baseline is the tree's baseline (nil: none), accepted counts the
	// findings it accepted; findings are what strict-baseline collects.
	baseline *baseline.Baseline
	accepted int
	findings []baseline.Finding
}

// path is the baseline file of the run's base directory.
func (s *strictBaseline) path() string {
	base := s.opts.baseDir
	if s.base != "" {
		base = s.base
	}
	return filepath.Join(base, baseline.FileName)
}

// read reads the baseline of a strict run, if the tree has one
// (pipeline.Options.OnDiscovered).
func (s *strictBaseline) read(d *pipeline.Discovered) error {
	s.base = d.Discovery.BaseDir
	if !d.Run.Strict() || s.opts.writeBaseline {
		return nil
	}
	b, err := baseline.Read(s.path())
	s.baseline = b
	return err
}

// accept decides about a strict-mode error (pipeline.Options.AcceptStrict):
// strict-baseline records it, a baseline that lists it accepts it.
func (s *strictBaseline) accept(d diag.Diagnostic) bool {
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
func (s *strictBaseline) relFile(file string) string {
	if s.base != "" && filepath.IsAbs(file) {
		file = tree.Rel(s.base, file)
	}
	return filepath.ToSlash(file)
}

// report says how many findings the baseline accepted and warns about its
// stale entries. Entries can only be judged stale when every package and
// every stage ran.
func (s *strictBaseline) report(problems *diag.List, stages pipeline.Stages) {
	if s.baseline == nil {
		return
	}
	if stages == pipeline.AllStages && len(s.opts.groupVersions) == 0 {
		for _, e := range s.baseline.Stale() {
			problems.Add(diag.Warningf(s.baseline.Path, 0, "", "stale entry: %s: %s (%d occurrence(s)) matches no finding any more; run codegen strict-baseline to drop it",
				e.File, e.Marker, max(e.Count, 1)))
		}
	}
	if s.accepted > 0 {
		progress(s.opts, "codegen: %d strict-mode finding(s) accepted by %s", s.accepted, baseline.FileName)
	}
}

// write writes the findings strict-baseline collected.
func (s *strictBaseline) write() error {
	entries := baseline.Entries(s.findings)
	if err := baseline.Write(s.path(), entries); err != nil {
		return &clicontract.Error{Code: ExitIO, Msg: fmt.Sprintf("error: writing %s: %v", baseline.FileName, err)}
	}
	progress(s.opts, "codegen strict-baseline: %d finding(s) in %d entr(y/ies) written to %s", len(s.findings), len(entries), s.relFile(s.path()))
	return nil
}
