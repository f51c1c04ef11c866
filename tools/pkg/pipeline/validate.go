package pipeline

import (
	"context"
	"path/filepath"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/requiredannotations"
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

// Validated is the merged output after the checks that read it: the
// required annotations of .gatedcrd.yaml, then the API server's own
// validation of every merged CRD. Further checks of the final manifests
// belong here too.
type Validated struct {
	*Merged
	// CRDValidation is what validating the merged CRDs did; nil when the
	// merge did not run or the inferred release cannot be validated for.
	CRDValidation *CRDValidation
}

// Validate checks the merged manifests of the tree. With a loaded universe,
// problems point at the Go declaration or marker behind them. It does
// nothing when the merge did not run.
func (m *Merged) Validate() (*Validated, error) {
	r := m.Run
	v := &Validated{Merged: m}
	if m.ManifestMerge == nil {
		return v, nil
	}
	in := requiredannotations.Input{Discovery: m.Discovery, Tree: r.Tree, Rule: m.Config.RequiredAnnotations, Merged: m.ManifestMerge.Outputs(),
		Untouched: m.untouched}
	if src := m.Sources(); src != nil {
		in.Locate = func(group, version, kind string) (string, int, bool) {
			p, ok := src.Locate(group, version, kind, "", "")
			return p.File, p.Line, ok
		}
	}
	r.Problems.Add(r.optIn(CheckRequiredAnnotations, m.Config.RequiredAnnotations.Configured(), requiredannotations.Check(in))...)
	if err := r.check(nil); err != nil {
		return nil, err
	}
	err := r.timed("crd-validation", v.validateCRDs)
	if v.CRDValidation != nil && r.Options.OnValidated != nil {
		r.Options.OnValidated(v.CRDValidation)
	}
	if err := r.check(err); err != nil {
		return nil, err
	}
	return v, nil
}

// validateCRDs validates every merged manifest as the targeted API server
// would (crdvalidate). Findings are at the Go marker behind them: errors
// when the release was chosen (Run.KubeTarget.Explicit), warnings when it
// was inferred, and so is a release whose validation cannot run.
func (v *Validated) validateCRDs() (err error) {
	r := v.Run
	target := r.KubeTarget
	base := v.Discovery.BaseDir
	var server crdvalidate.Server
	if target.Minor != crdvalidate.LinkedKubeVersion {
		// Another release's code runs as its own program, built on first
		// use into the cache shared with the API test suites.
		program, done, startErr := r.validationProgram(target)
		if startErr != nil {
			if target.Explicit {
				return startErr
			}
			r.Problems.Add(diag.Warningf(base, 0, "", "Kubernetes %s: %v; the generated CRDs were not validated", target, startErr))
			return nil
		}
		defer func() { done(err != nil) }()
		server = program
	}
	found := r.Problems
	if !target.Explicit {
		found = &diag.List{}
		defer func() { r.Problems.Add(r.optIn(CheckKubeVersion, false, found.Items())...) }()
	}
	in := crdvalidate.Input{Tree: r.Tree, BaseDir: base, Problems: found, CostTop: r.Options.CELCosts, Server: server,
		Sources: v.Sources(), Merged: v.ManifestMerge.Outputs()}
	if !r.Options.NoVerdictCache {
		if dir, err := kubeprogram.CacheDir(); err == nil {
			in.Verdicts = crdvalidate.OpenVerdicts(filepath.Join(dir, crdvalidate.VerdictsDirName))
		}
	}
	committed := r.committedReader(base)
	defer committed.Close()
	in.Previous = committed.Read
	start := time.Now()
	res, err := crdvalidate.Run(in)
	if err != nil {
		return err
	}
	v.CRDValidation = &CRDValidation{KubeVersion: target.Minor, Result: res, Duration: time.Since(start)}
	return nil
}

// validationProgram returns the validation program of a release other
// than the linked one: the one the run's Keep keeps, or a new
// one. Call done when the run is over with whether the validation failed:
// it closes a program of this run's own, and drops a kept one that
// failed.
func (r *Run) validationProgram(target kubetarget.Choice) (p *crdvalidate.Program, done func(failed bool), err error) {
	start := func() (*crdvalidate.Program, error) { return r.startProgram(target) }
	keep := r.kept().programs
	if keep == nil {
		if p, err = start(); err != nil {
			return nil, nil, err
		}
		return p, func(bool) { p.Close() }, nil
	}
	if p, err = keep.get(target.Minor, start); err != nil {
		return nil, nil, err
	}
	return p, func(failed bool) {
		if failed {
			keep.drop(target.Minor, p)
		}
	}, nil
}

// startProgram starts the validation program of a release other than the
// linked one.
func (r *Run) startProgram(target kubetarget.Choice) (*crdvalidate.Program, error) {
	v, err := kubeprogram.Lookup(target.Minor)
	if err != nil {
		return nil, err
	}
	return crdvalidate.StartProgram(context.Background(), v, kubeprogram.BuildOptions{Progress: r.Options.Progress})
}

// Checks beyond the reference's that a repository opts in to with a key
// of .gatedcrd.yaml, named by that key (Run.NotOptedIn).
const (
	CheckKubeVersion         = "kubeVersion"
	CheckRequiredAnnotations = "requiredAnnotations"
)

// optIn returns the findings of a check beyond the reference's: as they
// are when the repository opted in to it, else as warnings
// (docs/zero-configuration.md),
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
