package kubetarget

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/repoconfig"
)

// Choice is the release a run targets and why.
type Choice struct {
	// Minor is the release, "<major>.<minor>".
	Minor string
	// Reason says where it came from, for the run's first lines:
	// "--kube-version", "kubeVersion of .gatedcrd.yaml:3",
	// "k8s.io/apimachinery v0.36.2 in go.mod", ...
	Reason string
	// Explicit is true when a flag or the configuration chose the release:
	// its findings, and a validation program that cannot be built, are
	// errors. Otherwise they are warnings.
	Explicit bool
}

// String renders the choice for a progress line: "1.36 (k8s.io/... in go.mod)".
func (c Choice) String() string { return c.Minor + " (" + c.Reason + ")" }

// Choose decides the release: flagValue (named by flagName) when not
// empty, else kubeVersion of cfg, else the release inferred from the go.mod
// governing baseDir, else linked. A malformed flag value is an error.
func Choose(flagName, flagValue string, cfg repoconfig.Config, baseDir, linked string) (Choice, error) {
	if flagValue != "" {
		kv, err := repoconfig.ParseKubeVersion(strings.TrimPrefix(flagValue, "v"))
		if err != nil {
			return Choice{}, fmt.Errorf("%s: %w", flagName, err)
		}
		return Choice{Minor: kv.String(), Reason: flagName, Explicit: true}, nil
	}
	if cfg.KubeVersion.IsSet() {
		return Choice{Minor: cfg.KubeVersion.String(), Reason: "kubeVersion of " + diag.Position{File: cfg.File, Line: cfg.KubeVersion.Line}.String(), Explicit: true}, nil
	}
	if minor, reason, ok := FromGoMod(baseDir); ok {
		return Choice{Minor: minor, Reason: reason}, nil
	}
	return Choice{Minor: linked, Reason: "the release this build links; no go.mod above the base directory requires k8s.io/apimachinery or k8s.io/api"}, nil
}

// inferredFrom are the modules whose minor names the Kubernetes release, in
// order of preference: every API repository requires apimachinery.
var inferredFrom = []string{"k8s.io/apimachinery", "k8s.io/api"}

// FromGoMod infers the release from the go.mod governing dir (the nearest
// one in dir or above): v0.36.2 of k8s.io/apimachinery is 1.36. reason
// names the module, its version and the file. ok is false when there is
// no such go.mod, or it requires neither module at a release version (a
// pseudo-version names no release).
func FromGoMod(dir string) (minor, reason string, ok bool) {
	file, data, found := governingGoMod(dir)
	if !found {
		return "", "", false
	}
	mf, err := modfile.ParseLax(file, data, nil)
	if err != nil {
		return "", "", false
	}
	for _, path := range inferredFrom {
		for _, r := range mf.Require {
			if r.Mod.Path != path {
				continue
			}
			if m, ok := releaseMinor(r.Mod.Version); ok {
				return m, fmt.Sprintf("%s %s in %s", path, r.Mod.Version, file), true
			}
		}
	}
	return "", "", false
}

// releaseMinor maps a Kubernetes library version v0.<minor>.<patch> (not
// a pseudo-version) to "1.<minor>".
func releaseMinor(v string) (string, bool) {
	// A pseudo-version v0.0.0-<date>-<hash> has minor 0 and names no
	// release; v0.36.0-0.<date>-<hash> is on the way to 1.36.
	if !semver.IsValid(v) || semver.Major(v) != "v0" {
		return "", false
	}
	mm := strings.TrimPrefix(semver.MajorMinor(v), "v0.")
	n, err := strconv.Atoi(mm)
	if err != nil || n == 0 {
		return "", false
	}
	return "1." + mm, true
}

// governingGoMod finds the go.mod of the module dir belongs to.
func governingGoMod(dir string) (string, []byte, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, false
	}
	for d := abs; ; {
		file := filepath.Join(d, "go.mod")
		data, err := os.ReadFile(file)
		if err == nil {
			return file, data, true
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, false
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil, false
		}
		d = parent
	}
}
