package openapiera

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// KubeOpenAPI is the module path of kube-openapi.
const KubeOpenAPI = "k8s.io/kube-openapi"

// referenceModFile is the go.mod of the reference codegen that a checkout
// of openshift/api carries: the module that generated the tree's files.
const referenceModFile = "tools/go.mod"

// Version returns the kube-openapi version the tree at moduleDir pins. A
// checkout that carries the reference (tools/go.mod requiring
// k8s.io/kube-openapi) generated its definitions with that release, which
// is not always the one its own go.mod requires (openshift/api of August
// 2026: tools 8949caaa1199, go.mod bbf5c5577288, whose files differ); a
// module zip has no tools/, and then the tree's own requirement decides:
// the version of the k8s.io/kube-openapi requirement of moduleDir/go.mod,
// direct or indirect, or the version a replace directive of that go.mod
// puts in its place when it replaces it with another version of
// k8s.io/kube-openapi. It returns "" when go.mod does not require
// kube-openapi, and an error when there is no go.mod or when kube-openapi
// is replaced by a directory or another module (no release to build
// from).
func Version(moduleDir string) (string, error) {
	if v, err := requirement(filepath.Join(moduleDir, referenceModFile)); err == nil && v != "" {
		return v, nil
	}
	return requirement(filepath.Join(moduleDir, "go.mod"))
}

// requirement is the kube-openapi release the go.mod at path requires, as
// Version describes.
func requirement(path string) (string, error) {
	moduleDir := filepath.Dir(path)
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("no go.mod in %s: the kube-openapi release is read from the module's requirements", moduleDir)
		}
		return "", err
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return "", err
	}
	version := ""
	for _, r := range f.Require {
		if r.Mod.Path == KubeOpenAPI {
			version = r.Mod.Version
		}
	}
	if version == "" {
		return "", nil
	}
	// A replace of one version beats a replace of every version, as in
	// the go command.
	var replacement *modfile.Replace
	for _, r := range f.Replace {
		if r.Old.Path != KubeOpenAPI || (r.Old.Version != "" && r.Old.Version != version) {
			continue
		}
		if replacement == nil || r.Old.Version != "" {
			replacement = r
		}
	}
	if replacement != nil {
		switch {
		case replacement.New.Version == "":
			return "", fmt.Errorf("%s: %s %s is replaced by the directory %s; the OpenAPI definitions can only be generated with a released kube-openapi", path, KubeOpenAPI, version, replacement.New.Path)
		case replacement.New.Path != KubeOpenAPI:
			return "", fmt.Errorf("%s: %s %s is replaced by %s %s; the OpenAPI definitions can only be generated with %s itself", path, KubeOpenAPI, version, replacement.New.Path, replacement.New.Version, KubeOpenAPI)
		}
		version = replacement.New.Version
	}
	return version, nil
}

// checkVersion says why version cannot be a kube-openapi release to build
// with, before the go command is asked.
func checkVersion(version string) error {
	if version == "" {
		return fmt.Errorf("no %s version given", KubeOpenAPI)
	}
	if err := module.Check(KubeOpenAPI, version); err != nil {
		return fmt.Errorf("%q is not a version of %s: %w", version, KubeOpenAPI, err)
	}
	return nil
}
