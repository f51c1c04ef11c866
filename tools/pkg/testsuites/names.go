package testsuites

import (
	"path/filepath"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/suitefile"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// The two names a suite takes after the partial manifest <X>.yaml it
// covers: <X>.yaml in openshift/api and <X>.testsuite.yaml in operator
// repositories. apitest runs both (internal/suitefile
// decides what is a suite at all); only this check reads the name.
const (
	plainSuffix     = ".yaml"
	testSuiteSuffix = ".testsuite.yaml"
)

// partialName returns the base name, less ".yaml", of the partial manifest
// a suite file is named after: X for X.yaml and for X.testsuite.yaml.
func partialName(suiteFile string) string {
	if name, ok := strings.CutSuffix(suiteFile, testSuiteSuffix); ok {
		return name
	}
	return strings.TrimSuffix(suiteFile, plainSuffix)
}

// suiteNames holds the base names of a tree's suite files, by version
// directory, then by CRD directory of tests/.
type suiteNames map[string]map[string][]string

// readSuiteNames lists the suite files of every version: the files of
// <version-dir>/tests/<crd>/ that suitefile.IsSuite accepts.
func readSuiteNames(t *tree.Tree, versions []*discovery.Version) (suiteNames, error) {
	names := suiteNames{}
	for _, v := range versions {
		testsDir := filepath.Join(v.Dir, suitefile.TestsDir)
		crds, err := listDirs(t, testsDir)
		if err != nil {
			return nil, err
		}
		byCRD := map[string][]string{}
		for _, crd := range crds {
			entries, err := t.ReadDir(filepath.Join(testsDir, crd))
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if !e.IsDir && suitefile.IsSuite(filepath.Join(testsDir, crd, e.Name)) {
					byCRD[crd] = append(byCRD[crd], e.Name)
				}
			}
		}
		names[v.Dir] = byCRD
	}
	return names, nil
}

// covers reports whether tests/<crd>/ of versionDir holds a suite named
// after the partial manifest <partial>.yaml, by either convention.
func (s suiteNames) covers(versionDir, crd, partial string) bool {
	for _, name := range s[versionDir][crd] {
		if partialName(name) == partial {
			return true
		}
	}
	return false
}

// stubSuffix returns the suffix of a stub written into tests/<crd>/ of
// versionDir: the convention of the nearest suites, those of that
// directory, else of the version's other CRDs, else of the whole tree, so
// that a new CRD of an operator repository gets <X>.testsuite.yaml like
// its neighbours; plain .yaml, openshift/api's name, where the tree has no suite.
func (s suiteNames) stubSuffix(versionDir, crd string) string {
	scopes := [][]string{s[versionDir][crd], s.ofVersion(versionDir), s.ofTree()}
	for _, names := range scopes {
		if len(names) > 0 {
			return convention(names)
		}
	}
	return plainSuffix
}

func (s suiteNames) ofVersion(versionDir string) []string {
	var all []string
	for _, names := range s[versionDir] {
		all = append(all, names...)
	}
	return all
}

func (s suiteNames) ofTree() []string {
	var all []string
	for dir := range s {
		all = append(all, s.ofVersion(dir)...)
	}
	return all
}

// convention returns .testsuite.yaml when more of names end in it than
// not, else .yaml: a mixed directory keeps openshift/api's name.
func convention(names []string) string {
	n := 0
	for _, name := range names {
		if strings.HasSuffix(name, testSuiteSuffix) {
			n++
		}
	}
	if 2*n > len(names) {
		return testSuiteSuffix
	}
	return plainSuffix
}
