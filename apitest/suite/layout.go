package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// payloadCandidates are the directories, relative to a directory of the
// tree, that may hold the payload FeatureGate manifests, nearest first:
// an API repository's payload-manifests/featuregates, and the
// featuregates directory operator repositories keep beside their
// generated CRDs.
var payloadCandidates = []string{filepath.Join("payload-manifests", "featuregates"), "featuregates"}

// DefaultPayloadDir is where a tree keeps its payload FeatureGate
// manifests when they serve every suite below it:
// <base-dir>/payload-manifests/featuregates.
func DefaultPayloadDir(baseDir string) string {
	return filepath.Join(baseDir, payloadCandidates[0])
}

// FindPayloadDir returns the payload directory of the suites of a version
// directory (the directory holding tests/ and zz_generated.crd-manifests/):
// the nearest directory payload-manifests/featuregates or featuregates
// that holds a featureGate-*.yaml file, looked for in versionDir, then in
// each parent, up to and including the first directory that holds a
// go.mod or a .git (the root of the module or repository) or, failing
// that, the root of the file system. searched lists the directories
// looked in, for the error of a tree without one.
func FindPayloadDir(versionDir string) (dir string, searched []string, err error) {
	abs, err := filepath.Abs(versionDir)
	if err != nil {
		return "", nil, err
	}
	rel := func(p string) string {
		// Keep paths as the caller wrote them when versionDir was relative.
		if r, err := filepath.Rel(abs, p); err == nil && !filepath.IsAbs(versionDir) {
			return filepath.Join(versionDir, r)
		}
		return p
	}
	for d := abs; ; {
		for _, c := range payloadCandidates {
			candidate := filepath.Join(d, c)
			searched = append(searched, rel(candidate))
			if holdsFeatureGates(candidate) {
				return rel(candidate), searched, nil
			}
		}
		if isFile(filepath.Join(d, "go.mod")) || exists(filepath.Join(d, ".git")) {
			return "", searched, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", searched, nil
		}
		d = parent
	}
}

// holdsFeatureGates reports whether dir holds a featureGate-*.yaml file.
func holdsFeatureGates(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasPrefix(e.Name(), "featureGate-") && filepath.Ext(e.Name()) == ".yaml" {
			return true
		}
	}
	return false
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// payloadResolver decides the payload directory of each suite: the one
// given, else DefaultPayloadDir of the base directory when it exists,
// else FindPayloadDir of the suite's version directory.
type payloadResolver struct {
	given    string // Options.PayloadDir
	baseDir  string
	byDir    map[string]string // version dir → payload dir
	searched map[string][]string
}

func (r *payloadResolver) dirFor(suitePath string) (string, error) {
	if r.given != "" {
		return r.given, nil
	}
	if def := DefaultPayloadDir(r.baseDir); exists(def) {
		return def, nil
	}
	vd := versionDir(suitePath)
	if dir, ok := r.byDir[vd]; ok {
		if dir == "" {
			return "", r.notFound(vd)
		}
		return dir, nil
	}
	dir, searched, err := FindPayloadDir(vd)
	if err != nil {
		return "", err
	}
	if r.byDir == nil {
		r.byDir, r.searched = map[string]string{}, map[string][]string{}
	}
	r.byDir[vd], r.searched[vd] = dir, searched
	if dir == "" {
		return "", r.notFound(vd)
	}
	return dir, nil
}

func (r *payloadResolver) notFound(vd string) error {
	return fmt.Errorf("no payload FeatureGate manifests (featureGate-*.yaml) for the suites of %s: looked in %s; give the directory with --payload-dir",
		vd, strings.Join(r.searched[vd], ", "))
}
