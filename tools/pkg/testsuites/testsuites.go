package testsuites

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/internal/suitefile"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/manifest"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

const partialDir = manifest.PartialManifestsDirName

// Input is what Run needs.
type Input struct {
	Discovery *discovery.Result
	Tree      *tree.Tree
	Problems  *diag.List
}

// Result counts what Run found.
type Result struct {
	PartialManifests int
	// Missing are the suite files that had to be stubbed, sorted.
	Missing []string
}

// Run writes a stub suite (into the tree) for every partial manifest
// without one.
func Run(in Input) (*Result, error) {
	res := &Result{}
	versions := in.Discovery.Versions()
	suites, err := readSuiteNames(in.Tree, versions)
	if err != nil {
		return nil, err
	}
	for _, v := range versions {
		crds, err := listDirs(in.Tree, filepath.Join(v.Dir, partialDir))
		if err != nil {
			return nil, err
		}
		for _, crd := range crds {
			entries, err := in.Tree.ReadDir(filepath.Join(v.Dir, partialDir, crd))
			if err != nil {
				return nil, err
			}
			for _, e := range entries {
				if e.IsDir || !strings.HasSuffix(e.Name, ".yaml") {
					continue
				}
				res.PartialManifests++
				partial := strings.TrimSuffix(e.Name, ".yaml")
				if suites.covers(v.Dir, crd, partial) {
					continue
				}
				suite := filepath.Join(v.Dir, suitefile.TestsDir, crd, partial+suites.stubSuffix(v.Dir, crd))
				stub, err := stubFor(in.Tree, filepath.Join(v.Dir, partialDir, crd, e.Name), crd, v.DirName())
				if err != nil {
					in.Problems.AddError(err)
					continue
				}
				in.Tree.WriteFile(suite, stub)
				res.Missing = append(res.Missing, suite)
			}
		}
	}
	sort.Strings(res.Missing)
	return res, nil
}

func listDirs(t *tree.Tree, dir string) ([]string, error) {
	entries, err := t.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir {
			out = append(out, e.Name)
		}
	}
	return out, nil
}

// stubFor renders a minimal suite for one partial manifest: the gates from
// its file name and one create test of a minimal object, which the author
// turns into real tests.
func stubFor(t *tree.Tree, partial, crdName, version string) ([]byte, error) {
	data, err := t.ReadFile(partial)
	if err != nil {
		return nil, err
	}
	obj, err := manifest.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", partial, err)
	}
	spec, _ := obj["spec"].(map[string]any)
	group, _ := spec["group"].(string)
	names, _ := spec["names"].(map[string]any)
	kind, _ := names["kind"].(string)
	if group == "" || kind == "" {
		return nil, fmt.Errorf("%s: cannot write a test suite stub: spec.group or spec.names.kind is missing", partial)
	}
	base := strings.TrimSuffix(filepath.Base(partial), ".yaml")
	var b strings.Builder
	b.WriteString("apiVersion: apiextensions.k8s.io/v1 # suites carry no kind, so CRD stages skip them\n")
	fmt.Fprintf(&b, "name: %q\n", kind)
	fmt.Fprintf(&b, "crdName: %s\n", crdName)
	if base != "AAA_ungated" {
		b.WriteString("featureGates:\n")
		for _, g := range strings.Split(base, "+") {
			fmt.Fprintf(&b, "- %s\n", g)
		}
	}
	object := fmt.Sprintf("apiVersion: %s/%s\n        kind: %s\n        spec: {}\n", group, version, kind)
	b.WriteString("tests:\n  onCreate:\n")
	fmt.Fprintf(&b, "  - name: Should be able to create a minimal %s\n", kind)
	fmt.Fprintf(&b, "    initial: |\n        %s", object)
	fmt.Fprintf(&b, "    expected: |\n        %s", object)
	return []byte(b.String()), nil
}
