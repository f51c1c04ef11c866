package protobuf

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pmezard/go-difflib/difflib"
	"sigs.k8s.io/yaml"
)

// treeEnv names a checkout of openshift/api to verify against.
const treeEnv = "GATEDCRD_PROTOBUF_TREE"

// treeGoFlagsEnv optionally sets GOFLAGS for loading the tree.
const treeGoFlagsEnv = "GATEDCRD_PROTOBUF_TREE_GOFLAGS"

// TestOpenShiftAPITree regenerates every package of an openshift/api
// checkout that commits protobuf output and requires the result to equal
// what is committed: generated.proto and generated.pb.go byte for byte, and
// no other Go file changed.
func TestOpenShiftAPITree(t *testing.T) {
	root := os.Getenv(treeEnv)
	if root == "" {
		t.Skipf("set %s to an openshift/api checkout to run", treeEnv)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	modPath := modulePath(t, root)

	var pkgs []Package
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "vendor" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == protoFileName {
			dir := filepath.Dir(p)
			rel, err := filepath.Rel(root, dir)
			if err != nil {
				return err
			}
			pkgs = append(pkgs, Package{Dir: dir, ImportPath: modPath + "/" + filepath.ToSlash(rel)})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) == 0 {
		t.Fatalf("no %s files under %s", protoFileName, root)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ImportPath < pkgs[j].ImportPath })
	t.Logf("%d packages", len(pkgs))
	checkOptIn(t, root, pkgs)

	opts := Options{ModuleDir: root}
	if flags := os.Getenv(treeGoFlagsEnv); flags != "" {
		// e.g. -mod=mod, to resolve imports from the module cache rather
		// than the tree's vendor directory.
		opts.Env = append(os.Environ(), "GOFLAGS="+flags)
		t.Logf("GOFLAGS=%s", flags)
	}
	start := time.Now()
	out, err := Generate(pkgs, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Generate took %v for %d packages, %d files", time.Since(start), len(pkgs), len(out))

	for _, pkg := range pkgs {
		for _, name := range []string{protoFileName, goFileName} {
			if _, ok := out[filepath.Join(pkg.Dir, name)]; !ok {
				t.Errorf("%s: no %s generated", pkg.ImportPath, name)
			}
		}
	}
	for _, path := range sortedKeys(out) {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: generated but not committed: %v", path, err)
			continue
		}
		if !bytes.Equal(out[path], want) {
			t.Errorf("%s differs from the committed file:\n%s", path, unifiedDiff(string(want), string(out[path])))
		}
	}
}

// checkOptIn cross-checks the committed packages with the groups'
// .codegen.yaml: each belongs to a group that enables protobuf and does not
// disable its version, and each enabling group has a committed package.
func checkOptIn(t *testing.T, root string, pkgs []Package) {
	t.Helper()
	type config struct {
		Protobuf *struct {
			Disabled         *bool    `json:"disabled"`
			DisabledVersions []string `json:"disabledVersions"`
		} `json:"protobuf"`
	}
	enabled := map[string]map[string]bool{} // group dir -> disabled versions
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(root, e.Name(), ".codegen.yaml"))
		if err != nil {
			continue
		}
		var c config
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s/.codegen.yaml: %v", e.Name(), err)
		}
		if c.Protobuf == nil || c.Protobuf.Disabled == nil || *c.Protobuf.Disabled {
			continue
		}
		off := map[string]bool{}
		for _, v := range c.Protobuf.DisabledVersions {
			off[v] = true
		}
		enabled[e.Name()] = off
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		rel, _ := filepath.Rel(root, p.Dir)
		group, version, _ := strings.Cut(filepath.ToSlash(rel), "/")
		off, ok := enabled[group]
		switch {
		case !ok:
			t.Errorf("%s commits protobuf output but group %s does not enable protobuf", rel, group)
		case off[version]:
			t.Errorf("%s commits protobuf output but version %s is disabled", rel, version)
		}
		seen[group] = true
	}
	for _, g := range sortedKeys(enabled) {
		if !seen[g] {
			t.Errorf("group %s enables protobuf but commits no generated.proto", g)
		}
	}
	t.Logf("%d groups enable protobuf: %v", len(enabled), sortedKeys(enabled))
}

func modulePath(t *testing.T, root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no module line in %s/go.mod", root)
	}
	return string(m[1])
}

func unifiedDiff(a, b string) string {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(a), B: difflib.SplitLines(b),
		FromFile: "committed", ToFile: "generated", Context: 2,
	})
	if err != nil {
		return err.Error()
	}
	if len(d) > 6000 {
		d = d[:6000] + "\n... (truncated)"
	}
	return d
}
