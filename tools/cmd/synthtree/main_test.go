package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/gatedcrd/gatedcrd/features/payload"
	"github.com/gatedcrd/gatedcrd/tools/pkg/goload"
)

func generateTree(t *testing.T, seed uint64, groups int) (string, counts) {
	t.Helper()
	dir := t.TempDir()
	c, err := generate(dir, seed, groups, "")
	if err != nil {
		t.Fatal(err)
	}
	return dir, c
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSameSeedSameTree(t *testing.T) {
	a, ca := generateTree(t, 1, referenceGroups)
	b, cb := generateTree(t, 1, referenceGroups)
	if ca != cb {
		t.Errorf("counts differ:\n%s\n%s", ca, cb)
	}
	fa, fb := readTree(t, a), readTree(t, b)
	if len(fa) != len(fb) {
		t.Fatalf("%d files vs %d files", len(fa), len(fb))
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between two runs with the same seed", name)
		}
	}
	c, _ := generateTree(t, 2, referenceGroups)
	if bytes.Equal(fa["apps/v1/types_shared.go"], readTree(t, c)["apps/v1/types_shared.go"]) {
		t.Errorf("seeds 1 and 2 gave the same shared types")
	}
}

func TestCountsMatchTargets(t *testing.T) {
	for _, groups := range []int{referenceGroups, 5} {
		p, err := newPlan(1, groups)
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.count()
		if err != nil {
			t.Fatal(err)
		}
		want := targetsFor(groups)
		t.Logf("--groups %d:\n%s", groups, c)
		check := func(what string, got, want int) {
			if got != want {
				t.Errorf("--groups %d: %s = %d, want %d", groups, what, got, want)
			}
		}
		check("group-versions", c.GroupVersions, want.GroupVersions)
		check("CRDs", c.CRDs, want.CRDs)
		check("type-gated CRDs", c.TypeGated, want.TypeGated)
		check("gates", c.Gates, want.Gates)
		check("gates used by markers", c.GatesUsed, want.Gates)
		check("gated fields", c.GatedFields, want.GatedFields)
		check("fields behind two gates", c.DoubleGated, want.DoubleGated)
		check("FeatureGateAware enums", c.Enums, want.Enums)
		check("requiredFeatureGate pairs", c.RequiredPairs, want.RequiredPairs)
		check("manual overrides", c.Overrides, want.Overrides)
		if c.PointerEnums == 0 || c.PointerEnums == c.Enums {
			t.Errorf("--groups %d: %d of %d enums through pointers; want some", groups, c.PointerEnums, c.Enums)
		}
		if c.GatedMaxItems == 0 || c.GatedXValidations <= c.RequiredPairs || c.CrossPackageRefs == 0 {
			t.Errorf("--groups %d: missing marker kinds: %+v", groups, c)
		}
		if c.PayloadFiles <= 8 {
			t.Errorf("--groups %d: %d payload files; want version-split ones beyond the 8 profile × feature set files", groups, c.PayloadFiles)
		}
		// The irregular part: a deep shared struct with CEL rules in every
		// block, embedded by some CRDs, and an aggregate CRD per block.
		check("aggregate CRDs", c.Aggregates, (groups+blockSize-1)/blockSize)
		if c.MaxDepth < platformDepth+3 || c.CELRules < 3*platformDepth*((groups+blockSize-1)/blockSize) {
			t.Errorf("--groups %d: structs nested %d deep with %d CEL rules; want the shared platform struct's depth and rules", groups, c.MaxDepth, c.CELRules)
		}
		if groups == referenceGroups {
			check("group-versions at the reference size", c.GroupVersions, 35)
			if c.MergedFiles < 400 || c.MergedFiles > 500 {
				t.Errorf("about %d merged files expected; want roughly 460", c.MergedFiles)
			}
		}
	}
}

// TestTreeIsValidInput checks what codegen's strict mode checks: every
// +kubebuilder:/+openshift: marker parses with the markers the CRD stages
// register, and every gate it names is in the payload FeatureGates. It also
// checks every version follows the layout conventions and that the Go
// files written are those the counts report.
func TestTreeIsValidInput(t *testing.T) {
	dir, c := generateTree(t, 1, referenceGroups)
	reg, err := goload.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	pd, err := payload.ReadDir(filepath.Join(dir, "payload-manifests", "featuregates"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, g := range pd.Gates() {
		known[string(g)] = true
	}
	accepted := []string{"+kubebuilder:object:generate"}
	fset := token.NewFileSet()
	versions, goFiles := 0, 0
	for name, data := range readTree(t, dir) {
		if strings.HasSuffix(name, "/doc.go") {
			versions++
			for _, want := range []string{"// +groupName=", "// +openshift:featuregated-schema-gen=true\n"} {
				if !bytes.Contains(data, []byte(want)) {
					t.Errorf("%s lacks %q", name, want)
				}
			}
			reg, err := os.ReadFile(filepath.Join(dir, filepath.Dir(name), "register.go"))
			if err != nil || !bytes.Contains(reg, []byte("var GroupVersion = schema.GroupVersion{Group: GroupName, Version: \""+filepath.Base(filepath.Dir(name))+"\"}")) {
				t.Errorf("%s/register.go does not declare GroupVersion as expected: %v", filepath.Dir(name), err)
			}
		}
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		goFiles++
		f, err := parser.ParseFile(fset, name, data, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if !strings.HasPrefix(line, "+kubebuilder:") && !strings.HasPrefix(line, "+openshift:") {
					continue
				}
				if strings.HasPrefix(line, accepted[0]) {
					continue
				}
				var def *markers.Definition
				for _, target := range []markers.TargetType{markers.DescribesField, markers.DescribesType, markers.DescribesPackage} {
					if def = reg.Lookup(line, target); def != nil {
						break
					}
				}
				if def == nil {
					t.Errorf("%s: %s: unknown marker", name, line)
					continue
				}
				if _, err := def.Parse(line); err != nil {
					t.Errorf("%s: %s: %v", name, line, err)
				}
				for _, entry := range gateRefs([]string{line}) {
					for _, g := range strings.Split(entry, "+") {
						if !known[g] {
							t.Errorf("%s: %s: gate %q is not in the payload", name, line, g)
						}
					}
				}
			}
		}
	}
	if versions != 35 {
		t.Errorf("%d doc.go files, want 35", versions)
	}
	if goFiles != c.GoFiles {
		t.Errorf("%d Go files written, counts say %d", goFiles, c.GoFiles)
	}
}

// TestTreeBuilds type-checks the tree with the go command, offline: its
// go.mod and go.sum must be complete.
func TestTreeBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir, _ := generateTree(t, 1, referenceGroups)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet ./... in the generated tree: %v\n%s", err, out)
	}
}

func TestRefusesNonEmptyDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"--out", dir, "--groups", "2"}, &out, &errOut); code != 1 {
		t.Errorf("exit %d for a non-empty --out, want 1", code)
	}
	if code := run([]string{"--groups", "2"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d without --out, want 2", code)
	}
}

func TestSmallTrees(t *testing.T) {
	for _, groups := range []int{1, 2, 3, 7, 12, 40} {
		var out, errOut bytes.Buffer
		if code := run([]string{"--out", t.TempDir(), "--groups", strconv.Itoa(groups), "-q"}, &out, &errOut); code != 0 {
			t.Errorf("--groups %d: exit %d: %s", groups, code, errOut.String())
		}
	}
}
