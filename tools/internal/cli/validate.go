package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifestmerge"
)

// kubeVersion returns the Kubernetes release to validate for: --kube-version,
// else kubeVersion of the repository configuration, else the linked one.
// explicit says whether the command line chose it.
func (s *runState) kubeVersion() (version string, explicit bool, err error) {
	if s.opts.kubeVersion != "" {
		v, err := repoconfig.ParseKubeVersion(s.opts.kubeVersion)
		if err != nil {
			return "", true, &exitError{code: ExitUsage, msg: fmt.Sprintf("error: --kube-version: %v", err)}
		}
		return v.String(), true, nil
	}
	if s.config.KubeVersion.IsSet() {
		return s.config.KubeVersion.String(), false, nil
	}
	return crdvalidate.LinkedKubeVersion, false, nil
}

// validateCRDs validates every merged manifest as the targeted API server
// would (crdvalidate). Findings are errors at the Go marker behind them.
func (s *runState) validateCRDs(merged *manifestmerge.Result, universe *goload.Universe) error {
	version, explicit, err := s.kubeVersion()
	if err != nil {
		return err
	}
	if version != crdvalidate.LinkedKubeVersion {
		msg := fmt.Sprintf("validating CRDs for Kubernetes %s needs that release's API server code; this build links %s only", version, crdvalidate.LinkedKubeVersion)
		if explicit {
			return &exitError{code: ExitUsage, msg: "error: --kube-version: " + msg}
		}
		s.problems.Add(diag.Warningf(filepath.Join(s.disc.BaseDir, repoconfig.FileName), 0, "kubeVersion", "%s; the generated CRDs were not validated", msg))
		return nil
	}
	in := crdvalidate.Input{Tree: s.tree, BaseDir: s.disc.BaseDir, Problems: s.problems, CostTop: s.opts.celCosts}
	if universe != nil {
		packages := map[string]string{}
		for _, v := range s.disc.Versions() {
			packages[v.Group+"/"+v.Version] = v.ImportPath
		}
		in.Sources = crdvalidate.NewSources(universe, packages)
	}
	committed := crdvalidate.OpenCommitted(s.disc.BaseDir)
	defer committed.Close()
	in.Previous = committed.Read
	for _, v := range merged.Versions {
		in.Files = append(in.Files, v.Written...)
	}
	start := time.Now()
	res, err := crdvalidate.Run(in)
	if err != nil {
		return err
	}
	s.progress("codegen: %d CRD file(s) (%d distinct CRDs) validated as Kubernetes %s does (%d also as upgrades of the committed file) in %s; %d finding(s)",
		res.Files, res.Distinct, version, res.Upgrades, time.Since(start).Round(time.Millisecond), res.Findings)
	if len(res.Costs) > 0 {
		fmt.Fprint(s.opts.stderr, crdvalidate.FormatCosts(res.Costs, s.disc.BaseDir))
	}
	return nil
}
