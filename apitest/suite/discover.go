package suite

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// testsDir is the name of the directory that holds a version's suites, one
// subdirectory per CRD: <version-dir>/tests/<crdName>/<anything>.yaml.
const testsDir = "tests"

// Discover returns the suite files below baseDir, sorted: every .yaml file
// whose grandparent directory is named "tests". Below baseDir it does not
// descend into directories named vendor or testdata or starting with "."
// or "_" (the go command's rule), so a tree's fixtures are not taken for
// its suites; baseDir itself may be any directory.
func Discover(baseDir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(baseDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != baseDir && (name == "vendor" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if isSuitePath(path) {
			found = append(found, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// isSuitePath reports whether path names a suite file: a .yaml file whose
// grandparent directory is named tests.
func isSuitePath(path string) bool {
	if filepath.Ext(path) != ".yaml" {
		return false
	}
	return filepath.Base(filepath.Dir(filepath.Dir(path))) == testsDir
}

// versionDir returns the version directory of a suite file: the directory
// that holds its tests directory.
func versionDir(suitePath string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(suitePath)))
}

// generatedDir is where stage 3 writes a version's CRD manifests.
const generatedDir = "zz_generated.crd-manifests"
