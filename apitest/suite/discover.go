package suite

import "github.com/gatedcrd/gatedcrd/internal/suitefile"

// testsDir is the name of the directory that holds a version's suites, one
// subdirectory per CRD: <version-dir>/tests/<crdName>/<anything>.yaml.
const testsDir = suitefile.TestsDir

// Discover returns the suite files below baseDir, sorted: every .yaml file
// whose grandparent directory is named "tests" (internal/suitefile, the
// rule codegen test-suites and watch --suites share). Below baseDir it does
// not descend into directories named vendor or testdata or starting with
// "." or "_" (the go command's rule), so a tree's fixtures are not taken
// for its suites; baseDir itself may be any directory.
func Discover(baseDir string) ([]string, error) { return suitefile.Discover(baseDir) }

// isSuitePath reports whether path names a suite file: a .yaml file whose
// grandparent directory is named tests.
func isSuitePath(path string) bool { return suitefile.IsSuite(path) }

// versionDir returns the version directory of a suite file: the directory
// that holds its tests directory.
func versionDir(suitePath string) string { return suitefile.VersionDir(suitePath) }

// generatedDir is where stage 3 writes a version's CRD manifests.
const generatedDir = "zz_generated.crd-manifests"
