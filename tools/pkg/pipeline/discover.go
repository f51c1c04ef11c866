package pipeline

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
	"github.com/gatedcrd/gatedcrd/internal/kubetarget"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
	"github.com/gatedcrd/gatedcrd/tools/pkg/baseline"
	"github.com/gatedcrd/gatedcrd/tools/pkg/crdvalidate"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

// Discovered is the result of discovery: the API groups and versions of
// the run, and the repository configuration (.gatedcrd.yaml).
type Discovered struct {
	Run *Run
	// Discovery holds the groups and versions found below the base
	// directory, and the module they belong to.
	Discovery *discovery.Result
	Config    repoconfig.Config
}

// Discover finds the API group-versions below the base directory.
func (r *Run) Discover() (*Discovered, error) {
	var res *discovery.Result
	err := r.timed("discovery", func() error {
		var probs *diag.List
		var err error
		res, probs, err = discovery.DiscoverWith(r.Options.BaseDir, r.Options.GroupVersions, discovery.Options{Selected: r.startLoad, Memo: r.kept().directories})
		var unmatched *discovery.FilterError
		if errors.As(err, &unmatched) {
			err = fmt.Errorf("%s: %w", r.Options.OptionNames.groupVersions(), err)
		}
		if probs != nil {
			r.Problems.Add(probs.Items()...)
		}
		if res != nil {
			// Discover found the tree; its error repeats its problems,
			// whose strict findings check may still settle.
			err = nil
		}
		return err
	})
	d := &Discovered{Run: r, Discovery: res}
	if err == nil {
		r.base = res.BaseDir
		err = d.configure()
	}
	var kv *KubeVersionError
	if errors.As(err, &kv) {
		r.cancelLoad()
		return nil, err
	}
	if err == nil && r.Options.OnDiscovered != nil {
		err = r.Options.OnDiscovered(d)
	}
	if err := r.check(err); err != nil {
		r.cancelLoad()
		return nil, err
	}
	return d, nil
}

// configure reads the repository configuration and settles what it
// decides for the run: strictness and the Kubernetes release. Until then
// strict findings stay unsettled.
func (d *Discovered) configure() error {
	r := d.Run
	base := d.Discovery.BaseDir
	cfg, err := repoconfig.Load(base)
	d.Config = cfg
	r.strict, r.settled = d.strictMarkers(), true
	r.chooseEra(cfg)
	if err != nil {
		return err
	}
	r.KubeTarget, err = kubetarget.Choose(r.Options.OptionNames.kubeVersion(), r.Options.KubeVersion, cfg, base, crdvalidate.LinkedKubeVersion)
	if err != nil {
		return &KubeVersionError{Msg: err.Error()}
	}
	// A chosen release must be one we can validate for; an inferred one
	// that is not only gets a warning when the validation runs.
	if t := r.KubeTarget; t.Explicit && t.Minor != crdvalidate.LinkedKubeVersion {
		if _, err := kubeprogram.Lookup(t.Minor); err != nil {
			if r.Options.KubeVersion != "" {
				return &KubeVersionError{Msg: fmt.Sprintf("%s: %v", r.Options.OptionNames.kubeVersion(), err)}
			}
			return diag.Errorf(cfg.File, cfg.KubeVersion.Line, "kubeVersion", "%v", err)
		}
	}
	return nil
}

// strictMarkers resolves Options.StrictMarkers: the option, else the
// configuration, else whether the tree has a strict baseline.
func (d *Discovered) strictMarkers() bool {
	return resolveStrict(d.Run.Options.StrictMarkers, d.Config, d.Discovery.BaseDir)
}

// ResolveStrict decides strictness as a run does (Options.StrictMarkers)
// for a command that reads the configuration itself: option, else
// strictMarkers of .gatedcrd.yaml at baseDir (an unreadable file counts
// as absent here; the run that reads it reports it), else whether a strict
// baseline exists.
func ResolveStrict(option *bool, baseDir string) bool {
	cfg, _ := repoconfig.Load(baseDir)
	return resolveStrict(option, cfg, baseDir)
}

func resolveStrict(option *bool, cfg repoconfig.Config, baseDir string) bool {
	if option != nil {
		return *option
	}
	if cfg.StrictMarkers != nil {
		return *cfg.StrictMarkers
	}
	_, err := os.Stat(filepath.Join(baseDir, baseline.FileName))
	return err == nil
}

// Strict reports whether strict-mode findings are errors in this run
// (Options.StrictMarkers resolved), once discovery ran.
func (r *Run) Strict() bool { return r.strict }

// startLoad starts the package load as soon as discovery knows the
// selected group-versions, when a selected stage needs Go types: the go
// command then lists the packages while discovery parses them, reads the
// repository configuration and stage 1 starts reading its manifests. Load
// finishes it (or, when it cannot serve, as with compatibility edits to
// load from memory, loads anew).
func (r *Run) startLoad(baseDir string, fset *token.FileSet, importPaths []string) {
	if r.Options.Stages&(PartialSchemas|SchemaPatch) != 0 && r.Options.LoadUniverse == nil {
		r.pending = goload.Start(baseDir, fset, importPaths)
	}
}

// cancelLoad stops a started load that no step will finish.
func (r *Run) cancelLoad() {
	if r.pending != nil {
		r.pending.Cancel()
		r.pending = nil
	}
}

// groupVersionPackages maps each discovered "<group>/<version>" to the
// import path of its Go package.
func (d *Discovered) groupVersionPackages() map[string]string {
	packages := map[string]string{}
	for _, v := range d.Discovery.Versions() {
		packages[v.Group+"/"+v.Version] = v.ImportPath
	}
	return packages
}
