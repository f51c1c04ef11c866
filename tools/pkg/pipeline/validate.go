package pipeline

import (
	"context"
	"path/filepath"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
)

// CRDValidation says what validating the merged manifests with the API
// server's code did: the release validated for, the result, and how long
// it took. It is not set when the configured release is not supported (a
// warning says the CRDs were not validated).
type CRDValidation struct {
	KubeVersion string
	Result      *crdvalidate.Result
	Duration    time.Duration
}

// KubeVersionError is returned when Options.KubeVersion is malformed or
// names an unsupported release: a usage error, not bad input.
type KubeVersionError struct{ Msg string }

func (e *KubeVersionError) Error() string { return "kube version: " + e.Msg }

// kubeVersion returns the Kubernetes release to validate for:
// Options.KubeVersion, else kubeVersion of the repository configuration,
// else the linked one. explicit says whether the options chose it.
func (m *Merged) kubeVersion() (version string, explicit bool, err error) {
	if v := m.Run.Options.KubeVersion; v != "" {
		kv, err := repoconfig.ParseKubeVersion(v)
		if err != nil {
			return "", true, &KubeVersionError{Msg: err.Error()}
		}
		return kv.String(), true, nil
	}
	if m.Config.KubeVersion.IsSet() {
		return m.Config.KubeVersion.String(), false, nil
	}
	return crdvalidate.LinkedKubeVersion, false, nil
}

// validateCRDs validates every merged manifest as the targeted API server
// would (crdvalidate). Findings are errors at the Go marker behind them.
func (m *Merged) validateCRDs() error {
	r := m.Run
	version, explicit, err := m.kubeVersion()
	if err != nil {
		return err
	}
	base := m.Discovered.BaseDir
	var server crdvalidate.Server
	if version != crdvalidate.LinkedKubeVersion {
		v, err := kubeprogram.Lookup(version)
		if err != nil {
			if explicit {
				return &KubeVersionError{Msg: err.Error()}
			}
			r.Problems.Add(diag.Warningf(filepath.Join(base, repoconfig.FileName), 0, "kubeVersion", "%v; the generated CRDs were not validated", err))
			return nil
		}
		// Another release's code runs as its own program, built on first
		// use into the cache shared with the API test suites.
		program, err := crdvalidate.StartProgram(context.Background(), v, kubeprogram.BuildOptions{Progress: r.Options.Progress})
		if err != nil {
			return err
		}
		defer program.Close()
		server = program
	}
	in := crdvalidate.Input{Tree: r.Tree, BaseDir: base, Problems: r.Problems, CostTop: r.Options.CELCosts, Server: server}
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
	r.CRDValidation = &CRDValidation{KubeVersion: version, Result: res, Duration: time.Since(start)}
	return nil
}
