// Package suitefile is the rule, shared by apitest, codegen test-suites and
// codegen watch --suites, for which files are API test suites: a .yaml
// file <dir>/tests/<crdName>/<anything>.yaml. Keeping it in one place
// means a file the runner runs is a file the presence check counts, and
// the other way round.
package suitefile

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// TestsDir is the name of the directory that holds a version's suites, one
// subdirectory per CRD: <version-dir>/tests/<crdName>/<anything>.yaml.
const TestsDir = "tests"

// IsSuite reports whether path names a suite file: a .yaml file whose
// grandparent directory is named tests. The rest of the name is free, so
// openshift/api's <X>.yaml and operator repositories' <X>.testsuite.yaml
// are both suites.
func IsSuite(path string) bool {
	if filepath.Ext(path) != ".yaml" {
		return false
	}
	return filepath.Base(filepath.Dir(filepath.Dir(path))) == TestsDir
}

// VersionDir returns the version directory of a suite file: the directory
// that holds its tests directory.
func VersionDir(suitePath string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(suitePath)))
}

// Discover returns the suite files below baseDir, sorted. Below baseDir it
// does not descend into directories named vendor or testdata or starting
// with "." or "_" (the go command's rule), so a tree's fixtures are not
// taken for its suites; baseDir itself may be any directory.
func Discover(baseDir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(baseDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != baseDir && skipped(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if IsSuite(path) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// skipped reports whether Discover leaves out a directory of this name.
func skipped(name string) bool {
	return name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}
