package watch

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// exampleTree copies the repository's example API group and payload
// FeatureGate manifests into a fresh tree inside the tools module (so its
// packages load through the tools module's go.mod). generated keeps the
// committed outputs; config copies the repository's .gatedcrd.yaml too
// (featureGateDocs makes every cycle a full run).
func exampleTree(t testing.TB, generated, config bool) string {
	t.Helper()
	dir := testtree.Write(t, nil)
	for _, src := range []string{"example", "payload-manifests/featuregates"} {
		for rel, content := range testtree.Snapshot(t, filepath.Join("../../..", src)) {
			if !generated && strings.Contains(rel, "zz_generated.") && !strings.HasSuffix(rel, ".go") {
				continue
			}
			writeFile(t, filepath.Join(dir, src, filepath.FromSlash(rel)), content)
		}
	}
	if config {
		data, err := os.ReadFile("../../../.gatedcrd.yaml")
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, ".gatedcrd.yaml"), string(data))
	}
	return dir
}

func writeFile(t testing.TB, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newRun(dir string) func() *pipeline.Run {
	return func() *pipeline.Run {
		return pipeline.New(pipeline.Options{BaseDir: dir, PayloadDir: pipeline.DefaultPayloadDir})
	}
}

// oneShot runs crd-manifests from scratch on a copy of dir's sources
// (every generated CRD file left out; imports of dir's packages import
// the copy's) and returns the resulting tree, as it would be at dir, and
// the run's error.
func oneShot(t testing.TB, dir string) (map[string]string, error) {
	t.Helper()
	ref := testtree.Write(t, nil)
	for rel, content := range testtree.Snapshot(t, dir) {
		if strings.Contains(rel, "zz_generated.") && !strings.HasSuffix(rel, ".go") {
			continue
		}
		writeFile(t, filepath.Join(ref, filepath.FromSlash(rel)), rewriteImports(t, dir, ref, rel, content))
	}
	r := newRun(ref)()
	changes, err := r.Generate()
	if err == nil {
		err = changes.Write()
	}
	snap := testtree.Snapshot(t, ref)
	for rel, content := range snap {
		snap[rel] = rewriteImports(t, ref, dir, rel, content)
	}
	_ = os.RemoveAll(ref)
	return snap, err
}

func sameTree(t testing.TB, what string, want, got map[string]string) {
	t.Helper()
	for _, p := range testtree.Paths(want) {
		if g, ok := got[p]; !ok {
			t.Errorf("%s: %s missing", what, p)
		} else if g != want[p] {
			t.Errorf("%s: %s differs from the one-shot run's", what, p)
		}
	}
	for _, p := range testtree.Paths(got) {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: %s is not in the one-shot run's tree", what, p)
		}
	}
}

// edit is one random change to the example tree: it returns the files it
// changed and what it did.
type edit func(t testing.TB, dir string, rng *rand.Rand) ([]string, string)

const (
	stableTypes  = "example/v1/types_stable.go"
	alphaTypes   = "example/v1alpha1/types_notstable.go"
	addedFile    = "example/v1/types_added.go"
	overrideFile = "example/v1/manual-override-crd-manifests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml"
)

// replace edits one file; it fails the test when from is not in it.
func replace(t testing.TB, dir, rel, from, to string) []string {
	t.Helper()
	p := filepath.Join(dir, rel)
	replaceVia(t, p, p+".swp-new", from, to)
	return []string{p}
}

// replaceVia saves p with from replaced by to as editors do: a new file,
// tmp, renamed over the old one. It fails the test when from is not in p.
func replaceVia(t testing.TB, p, tmp, from, to string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), from) {
		t.Fatalf("%s: %q not found", p, from)
	}
	writeFile(t, tmp, strings.Replace(string(data), from, to, 1))
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

func contains(t testing.TB, dir, rel, s string) bool {
	data, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(data), s)
}

// addedField is the field the edits add, gate, validate and remove.
const addedField = "\t// addedField was added by an edit.\n\t// +optional\n\tAddedField string `json:\"addedField,omitempty\"`\n"

var edits = map[string]edit{
	"add or remove a field": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		rel := []string{stableTypes, alphaTypes}[rng.IntN(2)]
		decl := map[string]string{stableTypes: "type StableConfigTypeSpec struct {\n", alphaTypes: "type NotStableConfigTypeSpec struct {\n"}[rel]
		if contains(t, dir, rel, "AddedField string") {
			data, _ := os.ReadFile(filepath.Join(dir, rel))
			s := string(data)
			start := strings.Index(s, "\t// addedField was added")
			end := strings.Index(s, "AddedField string `json:\"addedField,omitempty\"`\n") + len("AddedField string `json:\"addedField,omitempty\"`\n")
			return replace(t, dir, rel, s[start:end], ""), "remove a field from " + rel
		}
		return replace(t, dir, rel, decl, decl+addedField), "add a field to " + rel
	},
	"gate marker": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		gated := "\t// +openshift:enable:FeatureGate=Example2\n\tImmutableField string"
		if contains(t, dir, stableTypes, gated) {
			return replace(t, dir, stableTypes, gated, "\tImmutableField string"), "ungate immutableField"
		}
		return replace(t, dir, stableTypes, "\tImmutableField string", gated), "gate immutableField"
	},
	"enum value": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		if contains(t, dir, stableTypes, "TechPreviewOnlyValue;ExtraValue") {
			return replace(t, dir, stableTypes, "TechPreviewOnlyValue;ExtraValue", "TechPreviewOnlyValue"), "remove an enum value"
		}
		return replace(t, dir, stableTypes, "enum=\"\";StableValue;TechPreviewOnlyValue", "enum=\"\";StableValue;TechPreviewOnlyValue;ExtraValue"), "add an enum value"
	},
	"CEL rule": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		rule := "\t// +kubebuilder:validation:XValidation:rule=\"self.size() < 64\",message=\"stableField is too long\"\n"
		if contains(t, dir, stableTypes, rule) {
			return replace(t, dir, stableTypes, rule, ""), "remove a CEL rule"
		}
		return replace(t, dir, stableTypes, "\tStableField string", rule+"\tStableField string"), "add a CEL rule"
	},
	"rename a type": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		from, to := "NestedEntry", "RenamedEntry"
		if contains(t, dir, stableTypes, "type RenamedEntry struct") {
			from, to = to, from
		}
		var changed []string
		for _, rel := range []string{stableTypes, "example/v1/zz_generated.deepcopy.go"} {
			p := filepath.Join(dir, rel)
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, p, strings.ReplaceAll(string(data), from, to))
			changed = append(changed, p)
		}
		return changed, "rename " + from + " to " + to
	},
	"shared type doc comment": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		if contains(t, dir, stableTypes, "keyed by their name") {
			return replace(t, dir, stableTypes, "keyed by their name", "keyed by name"), "edit NestedConfig's doc comment back"
		}
		return replace(t, dir, stableTypes, "keyed by name", "keyed by their name"), "edit NestedConfig's doc comment (both group-versions hold it)"
	},
	"doc comment of one of two CRDs": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		if contains(t, dir, alphaTypes, "no gate marker at all") {
			return replace(t, dir, alphaTypes, "no gate marker at all", "no gate marker"), "edit NotStableConfigTypeSpec's doc comment back"
		}
		return replace(t, dir, alphaTypes, "no gate marker", "no gate marker at all"), "edit NotStableConfigTypeSpec's doc comment"
	},
	"doc comment": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		if contains(t, dir, stableTypes, "on every single cluster") {
			return replace(t, dir, stableTypes, "on every single cluster", "on every cluster"), "edit a doc comment back"
		}
		return replace(t, dir, stableTypes, "on every cluster", "on every single cluster"), "edit a doc comment"
	},
	"change the imports": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		const imp = "\t_ \"k8s.io/apimachinery/pkg/util/intstr\"\n"
		if contains(t, dir, stableTypes, imp) {
			return replace(t, dir, stableTypes, imp, ""), "remove an import"
		}
		return replace(t, dir, stableTypes, "import (\n", "import (\n"+imp), "add an import"
	},
	"add or delete a file": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		p := filepath.Join(dir, addedFile)
		if _, err := os.Stat(p); err == nil {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			return []string{p}, "delete " + addedFile
		}
		writeFile(t, p, "package v1\n\n// AddedByEdit is declared in a file an edit added.\ntype AddedByEdit struct {\n\t// name names it.\n\tName string `json:\"name\"`\n}\n")
		return []string{p}, "add " + addedFile
	},
	"touch an override": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		p := filepath.Join(dir, overrideFile)
		now := time.Now()
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
		return []string{p}, "touch the override"
	},
	"edit an override": func(t testing.TB, dir string, rng *rand.Rand) ([]string, string) {
		if contains(t, dir, overrideFile, ".status.replicas\n") {
			return replace(t, dir, overrideFile, ".status.replicas\n", ".status.readyReplicas\n"), "edit the override back"
		}
		return replace(t, dir, overrideFile, ".status.readyReplicas\n", ".status.replicas\n"), "edit the override"
	},
}

// TestCyclesMatchOneShotRuns is the property test of issue 28: after
// every cycle of a random sequence of edits (fields, gate markers, enum
// values, CEL rules, doc comments, among them of a type two
// group-versions hold and of one of two CRDs of a group-version, a type
// renamed, a syntax error and its fix, an override touched or edited, an
// import added or removed, a Go file added or deleted), the watched tree
// of the example with a second CRD (withSharedCRD) is byte-identical to
// the tree a one-shot crd-manifests run produces from scratch on a copy
// of its sources, also when a cycle regenerated only the CRDs reaching
// the edit; a cycle with errors writes nothing and the one-shot run fails
// too. GATEDCRD_WATCH_STEPS sets the number of edits (default 8),
// GATEDCRD_WATCH_SEED the seed (default: random, logged).
func TestCyclesMatchOneShotRuns(t *testing.T) {
	steps := envInt(t, "GATEDCRD_WATCH_STEPS", 8)
	if testing.Short() {
		steps = 4
	}
	seed := uint64(envInt(t, "GATEDCRD_WATCH_SEED", int(time.Now().UnixNano()%1e6)))
	t.Logf("seed %d (GATEDCRD_WATCH_SEED), %d steps", seed, steps)
	rng := rand.New(rand.NewPCG(seed, 28))
	for _, config := range []bool{false, true} {
		t.Run(fmt.Sprintf("config=%v", config), func(t *testing.T) {
			dir := withSharedCRD(t, exampleTree(t, true, config))
			w := started(t, dir)
			names := make([]string, 0, len(edits))
			for n := range edits {
				names = append(names, n)
			}
			slices.Sort(names)
			partial, kept, byCRD := 0, 0, 0
			for step := range steps {
				var changed []string
				var what string
				broken := rng.IntN(6) == 0
				if broken {
					changed = replace(t, dir, stableTypes, "type NestedConfig struct {", "type NestedConfig struct {{")
					what = "break the syntax"
				} else {
					changed, what = edits[names[rng.IntN(len(names))]](t, dir, rng)
				}
				before := testtree.Snapshot(t, dir)
				rep := w.Cycle(w.changedOf(setOf(changed)))
				want, oneShotErr := oneShot(t, dir)
				label := fmt.Sprintf("step %d (%s; cycle scope %v, root types %v, packages kept %v)", step, what, rep.Scope, rep.Kinds, rep.PackagesKept)
				if rep.Scope != nil {
					partial++
				}
				if len(rep.Kinds) > 0 {
					byCRD++
				}
				if rep.PackagesKept {
					kept++
				}
				switch {
				case broken:
					if rep.Err == nil || !errors.Is(rep.Err, pipeline.ErrInput) || rep.Errors == 0 {
						t.Fatalf("%s: the cycle did not fail: %+v", label, rep)
					}
					if oneShotErr == nil {
						t.Fatalf("%s: the one-shot run did not fail", label)
					}
					sameTree(t, label+": the files of the last good cycle stay", before, testtree.Snapshot(t, dir))
					changed = replace(t, dir, stableTypes, "type NestedConfig struct {{", "type NestedConfig struct {")
					rep = w.Cycle(w.changedOf(setOf(changed)))
					want, oneShotErr = oneShot(t, dir)
					label += " then fix it"
					fallthrough
				default:
					if rep.Err != nil || oneShotErr != nil {
						t.Fatalf("%s: cycle error %v, one-shot error %v", label, rep.Err, oneShotErr)
					}
					sameTree(t, label, want, testtree.Snapshot(t, dir))
				}
				if t.Failed() {
					t.FailNow()
				}
			}
			if !config && steps >= 8 && partial == 0 {
				t.Error("no cycle was restricted to the group-versions a change concerns")
			}
			if !config && steps >= 8 && byCRD == 0 {
				t.Error("no cycle was restricted to the CRDs reaching a changed declaration")
			}
			if steps >= 8 && kept == 0 {
				t.Error("no cycle kept the loaded Go packages")
			}
			t.Logf("%d of %d edits regenerated part of the tree (%d only the CRDs reaching the edit), %d kept the Go packages", partial, steps, byCRD, kept)
		})
	}
}

func setOf(paths []string) map[string]bool {
	m := map[string]bool{}
	for _, p := range paths {
		m[p] = true
	}
	return m
}

func envInt(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// TestErrorThenRecover drives the watcher through file notifications: a
// save (by rename, as editors do) that breaks the syntax is reported with
// its file and line and writes nothing; the next good save regenerates;
// a touch that changes no byte starts no cycle; cancelling the context
// stops the loop and leaves no temporary file.
func TestErrorThenRecover(t *testing.T) {
	dir := exampleTree(t, true, false)
	bg := runWatcher(t, dir, Options{})
	next, out, reports := bg.next, &bg.out, bg.reports
	if r := next("first cycle"); r.Err != nil {
		t.Fatalf("first cycle: %v\n%s", r.Err, out.String())
	}
	good := testtree.Snapshot(t, dir)

	replace(t, dir, stableTypes, "type NestedConfig struct {", "type NestedConfig struct {{")
	r := next("broken save")
	if r.Err == nil || r.Errors == 0 {
		t.Fatalf("broken save: %+v\n%s", r, out.String())
	}
	if !strings.Contains(out.String(), "error: "+stableTypes+":") {
		t.Errorf("the error is not reported with its file and line:\n%s", out.String())
	}
	broken := testtree.Snapshot(t, dir)
	delete(broken, stableTypes)
	delete(good, stableTypes)
	sameTree(t, "after the broken save", good, broken)

	replace(t, dir, stableTypes, "type NestedConfig struct {{", "type NestedConfig struct {\n\t// recovered is new.\n\t// +optional\n\tRecovered string `json:\"recovered,omitempty\"`\n")
	r = next("fixed save")
	if r.Err != nil || r.Written == 0 {
		t.Fatalf("fixed save: %+v\n%s", r, out.String())
	}
	want, err := oneShot(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "after the fixed save", want, testtree.Snapshot(t, dir))

	now := time.Now()
	if err := os.Chtimes(filepath.Join(dir, overrideFile), now, now); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-reports:
		t.Errorf("a touch that changed nothing started a cycle: %+v", r)
	case <-time.After(500 * time.Millisecond):
	}
	if err := bg.stop(); err != nil {
		t.Fatal(err)
	}
	for rel := range testtree.Snapshot(t, dir) {
		if strings.Contains(filepath.Base(rel), ".tmp-") {
			t.Errorf("temporary file left: %s", rel)
		}
	}
	if !strings.Contains(out.String(), "watch #3: "+stableTypes+": ") {
		t.Errorf("no cycle line for the fixed save:\n%s", out.String())
	}
}

// TestTouchOfGoFilesStartsNoCycle touches every Go file of a package
// the first cycle read, and changes the mode of one: the files that do not
// mention GroupVersion were no input before the first cycle knew their
// package, and must still count as seen (docs/watch.md: a file saved
// without a change, or touched, starts no cycle). An editor's lock file
// appearing next to them is no input either.
func TestTouchOfGoFilesStartsNoCycle(t *testing.T) {
	dir := exampleTree(t, true, false)
	bg := runWatcher(t, dir, Options{})
	if r := bg.next("first cycle"); r.Err != nil {
		t.Fatalf("first cycle: %v\n%s", r.Err, bg.out.String())
	}
	goFiles, err := filepath.Glob(filepath.Join(dir, filepath.Dir(stableTypes), "*.go"))
	if err != nil || len(goFiles) < 3 {
		t.Fatalf("Go files of the package: %v (%v)", goFiles, err)
	}
	now := time.Now()
	for _, p := range goFiles {
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(goFiles[0], 0o600); err != nil {
		t.Fatal(err)
	}
	// Emacs's lock file of a buffer with unsaved edits: a dangling
	// symbolic link named like a Go file, which the go command ignores.
	lock := filepath.Join(filepath.Dir(goFiles[0]), ".#"+filepath.Base(goFiles[0]))
	if err := os.Symlink("author@host.1234:1700000000", lock); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-bg.reports:
		t.Errorf("touching the package's Go files or an editor's lock file started a cycle: %+v", r)
	case <-time.After(500 * time.Millisecond):
	}
	if err := bg.stop(); err != nil {
		t.Fatal(err)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWatchAndOneShotTogether starts a watch cycle and a one-shot run
// that writes at the same moment, on a tree without generated files and
// then after edits, and checks that the tree is always exactly what a
// one-shot run from scratch produces, never a mixture: each holds the
// write lock (the watch for its whole cycle, the one-shot while it
// writes).
func TestWatchAndOneShotTogether(t *testing.T) {
	dir := exampleTree(t, false, false)
	w, err := New(dir, Options{NewRun: newRun(dir)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	rounds := []edit{nil, edits["add or remove a field"], edits["enum value"], edits["edit an override"]}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, e := range rounds {
		var changed []string
		if e != nil {
			changed, _ = e(t, dir, rng)
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		var rep Report
		var oneShotErr error
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			rep = w.Cycle(w.changedOf(setOf(changed)))
		}()
		go func() {
			defer wg.Done()
			<-start
			r := newRun(dir)()
			changes, err := r.Generate()
			if err == nil {
				err = changes.Write()
			}
			oneShotErr = err
		}()
		close(start)
		wg.Wait()
		if rep.Err != nil || oneShotErr != nil {
			t.Fatalf("round %d: watch error %v, one-shot error %v", i, rep.Err, oneShotErr)
		}
		want, err := oneShot(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		sameTree(t, fmt.Sprintf("round %d", i), want, testtree.Snapshot(t, dir))
	}
}
