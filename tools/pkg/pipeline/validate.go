package pipeline

import (
	"context"
	"path/filepath"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
)

// CRDValidation says what validating the merged manifests with the API
// server's code did: the release validated for, the result, and how long
// it took. It is not set when an inferred release cannot be validated for
// (a warning says the CRDs were not validated); a chosen one that cannot
// is an error before any work.
type CRDValidation struct {
	KubeVersion string
	Result      *crdvalidate.Result
	Duration    time.Duration
}

// KubeVersionError is returned when Options.KubeVersion is malformed: a
// usage error, not bad input.
type KubeVersionError struct{ Msg string }

func (e *KubeVersionError) Error() string { return "kube version: " + e.Msg }

// validateCRDs validates every merged manifest as the targeted API server
// would (crdvalidate). Findings are at the Go marker behind them: errors
// when the release was chosen (Run.KubeTarget.Explicit), warnings when it
// was inferred, and so is a release whose validation cannot run.
func (m *Merged) validateCRDs() error {
	r := m.Run
	target := r.KubeTarget
	base := m.Discovered.BaseDir
	var server crdvalidate.Server
	if target.Minor != crdvalidate.LinkedKubeVersion {
		// Another release's code runs as its own program, built on first
		// use into the cache shared with the API test suites.
		program, err := m.startProgram(target)
		if err != nil {
			if target.Explicit {
				return err
			}
			r.Problems.Add(diag.Warningf(base, 0, "", "Kubernetes %s: %v; the generated CRDs were not validated", target, err))
			return nil
		}
		defer program.Close()
		server = program
	}
	found := r.Problems
	if !target.Explicit {
		found = &diag.List{}
		defer func() { r.Problems.Add(r.optIn(CheckKubeVersion, false, found.Items())...) }()
	}
	in := crdvalidate.Input{Tree: r.Tree, BaseDir: base, Problems: found, CostTop: r.Options.CELCosts, Server: server}
	if m.Universe != nil {
		packages := map[string]string{}
		for _, v := range m.Versions() {
			packages[v.Group+"/"+v.Version] = v.ImportPath
		}
		in.Sources = crdvalidate.NewSources(m.Universe, packages)
	}
	if !r.Options.NoVerdictCache {
		if dir, err := kubeprogram.CacheDir(); err == nil {
			in.Verdicts = crdvalidate.OpenVerdicts(filepath.Join(dir, crdvalidate.VerdictsDirName))
		}
	}
	committed := crdvalidate.OpenCommitted(base)
	defer committed.Close()
	in.Previous = committed.Read
	in.Merged = m.Result.Outputs()
	start := time.Now()
	res, err := crdvalidate.Run(in)
	if err != nil {
		return err
	}
	r.CRDValidation = &CRDValidation{KubeVersion: target.Minor, Result: res, Duration: time.Since(start)}
	return nil
}

// startProgram starts the validation program of a release other than the
// linked one.
func (m *Merged) startProgram(target kubetarget.Choice) (*crdvalidate.Program, error) {
	v, err := kubeprogram.Lookup(target.Minor)
	if err != nil {
		return nil, err
	}
	return crdvalidate.StartProgram(context.Background(), v, kubeprogram.BuildOptions{Progress: m.Run.Options.Progress})
}

// Checks beyond the reference's that a repository opts in to with a key
// of .gatedcrd.yaml, named by that key (Run.NotOptedIn).
const (
	CheckKubeVersion         = "kubeVersion"
	CheckRequiredAnnotations = "requiredAnnotations"
)

// optIn returns the findings of a check beyond the reference's: as they
// are when the repository opted in to it, else as warnings (SPEC 9.1),
// counted in Run.NotOptedIn.
func (r *Run) optIn(check string, optedIn bool, found []diag.Diagnostic) []diag.Diagnostic {
	if optedIn {
		return found
	}
	if r.NotOptedIn == nil {
		r.NotOptedIn = map[string]int{}
	}
	r.NotOptedIn[check] += len(found)
	out := make([]diag.Diagnostic, len(found))
	for i, d := range found {
		d.Severity = diag.Warning
		out[i] = d
	}
	return out
}
