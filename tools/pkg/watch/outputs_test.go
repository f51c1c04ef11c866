package watch

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/diag"
	"github.com/gatedcrd/gatedcrd/tools/pkg/discovery"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generator"
	"github.com/gatedcrd/gatedcrd/tools/pkg/generators"
	"github.com/gatedcrd/gatedcrd/tools/pkg/swaggerdocs"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

// goOutputs are the generators of codegen watch's per-package Go files,
// with the flags' defaults: in the cycle, and after it.
func goOutputs() (in, later []generator.Generator) {
	return []generator.Generator{&generators.SwaggerDocs{OutputFile: swaggerdocs.DefaultOutputFile, CommentPolicy: generators.CommentPolicyEnforce}},
		[]generator.Generator{&generators.Deepcopy{OutputFile: generators.DeepcopyFile}, &generators.ModelName{OutputFile: generators.ModelNameFile}}
}

// bareOutputs runs the per-package generators as a bare codegen run does
// (one universe of every API package and the Kubernetes packages) on the
// tree at dir and returns what they generate, by absolute path.
func bareOutputs(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	disc, _, err := discovery.Discover(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	in, later := goOutputs()
	ctx := &generator.Context{Discovery: disc, Tree: tree.New(), Problems: &diag.List{}}
	if err := generator.Run(ctx, append(later, in...)...); err != nil {
		t.Fatal(err)
	}
	if ctx.Problems.HasErrors() {
		t.Fatalf("bare run: %v", ctx.Problems.Items())
	}
	return ctx.Tree.Written()
}

// withGoOutputs makes the example tree at dir one whose packages have
// deepcopy-gen's and the model name generator's files, as a bare codegen
// run writes them (the example's own deepcopy is controller-gen's).
func withGoOutputs(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	for rel, tags := range map[string]string{
		"example/v1/doc.go":       "// +k8s:deepcopy-gen=package\n// +k8s:openapi-model-package=com.example.v1\n",
		"example/v1alpha1/doc.go": "// +k8s:deepcopy-gen=package\n// +k8s:openapi-model-package=com.example.v1alpha1\n",
	} {
		p := filepath.Join(dir, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, tags+string(data))
	}
	files := bareOutputs(t, dir)
	for p, data := range files {
		writeFile(t, p, string(data))
	}
	return files
}

// TestSavesKeepTheGoOutputsFresh checks that the per-package Go files of
// a saved package follow its edits: a new field and type change its
// swagger docs in the save's cycle and its deepcopy and model name files
// in the run after it (Settle); a doc-comment edit changes its swagger
// docs and needs no gengo run; a syntax error mid-edit writes nothing and
// the next good save recovers. Each time the files are those a bare
// codegen run writes, and the other package's are not touched.
func TestSavesKeepTheGoOutputsFresh(t *testing.T) {
	dir := exampleTree(t, true, false)
	initial := withGoOutputs(t, dir)
	v1 := filepath.Join(dir, "example/v1")
	untouched := map[string]time.Time{}
	for p := range initial {
		if !strings.HasPrefix(p, v1+string(filepath.Separator)) {
			untouched[p] = modTime(t, p)
		}
	}
	if len(untouched) != 3 || len(initial) != 6 {
		t.Fatalf("fixture: want 3 files in each package, got %d in all, %d outside example/v1", len(initial), len(untouched))
	}
	in, later := goOutputs()
	w := startedWith(t, dir, Options{NewRun: newRun(dir), Outputs: in, GengoOutputs: later})
	if _, ran := w.Settle(); ran {
		t.Error("the first cycle made a gengo run due")
	}
	swagger := filepath.Join(v1, swaggerdocs.DefaultOutputFile)
	deepcopy := filepath.Join(v1, generators.DeepcopyFile)
	modelName := filepath.Join(v1, generators.ModelNameFile)

	// A new field, of a new type.
	types := filepath.Join(dir, stableTypes)
	src := strings.Replace(string(readFile(t, types)), "type StableConfigTypeSpec struct {\n",
		"type StableConfigTypeSpec struct {\n\t// addedEntries were added by an edit.\n\t// +optional\n\t// +listType=atomic\n\t// +kubebuilder:validation:MaxItems=8\n\tAddedEntries []AddedEntry `json:\"addedEntries,omitempty\"`\n\n", 1)
	saveAs(t, types, src+"\n// AddedEntry was added by an edit.\ntype AddedEntry struct {\n\t// name names the entry.\n\t// +optional\n\t// +kubebuilder:validation:MaxLength=64\n\tName string `json:\"name,omitempty\"`\n}\n")
	rep := w.Cycle(w.changedOf(setOf([]string{types})))
	if rep.Err != nil {
		t.Fatalf("new type: %v", rep.Err)
	}
	if !slices.Contains(rep.Files, tree.Rel(dir, swagger)) {
		t.Errorf("new type: the cycle did not write the swagger docs: %v", rep.Files)
	}
	if contains(t, dir, "example/v1/"+generators.DeepcopyFile, "AddedEntry") {
		t.Error("new type: the cycle wrote the deepcopy file; the gengo run after it should")
	}
	later1, ran := w.Settle()
	if !ran || later1.Err != nil {
		t.Fatalf("new type: gengo run %v: %+v", ran, later1)
	}
	if !slices.Equal(later1.Scope, []string{"example/v1"}) || !slices.Equal(later1.Generators, []string{"deepcopy", "modelname"}) {
		t.Errorf("new type: gengo run of %v by %v, want example/v1 by deepcopy, modelname", later1.Scope, later1.Generators)
	}
	for _, f := range []string{deepcopy, modelName} {
		if !slices.Contains(later1.Files, tree.Rel(dir, f)) {
			t.Errorf("new type: the gengo run did not write %s: %v", f, later1.Files)
		}
	}
	sameOutputs(t, "after a new field and type", dir, untouched)

	// A doc-comment edit: swagger docs only, no gengo run.
	before := readFile(t, deepcopy)
	rep = w.Cycle(w.changedOf(setOf(replace(t, dir, stableTypes, "// entries are keyed by name.", "// entries are keyed by their name."))))
	if rep.Err != nil || !slices.Contains(rep.Files, tree.Rel(dir, swagger)) {
		t.Fatalf("doc comment: %+v", rep)
	}
	if _, ran := w.Settle(); ran {
		t.Error("doc comment: a gengo run is due")
	}
	if !bytes.Equal(before, readFile(t, deepcopy)) {
		t.Error("doc comment: the deepcopy file changed")
	}
	sameOutputs(t, "after a doc-comment edit", dir, untouched)

	// A syntax error mid-edit, then the save that completes it.
	good := readFile(t, types)
	rep = w.Cycle(w.changedOf(setOf(replace(t, dir, stableTypes, "type AddedEntry struct {", "type AddedEntry struct {\n\tBroken int ="))))
	if rep.Err == nil {
		t.Fatal("syntax error: the cycle succeeded")
	}
	if r, ran := w.Settle(); ran {
		t.Errorf("syntax error: a gengo run ran after a failed cycle: %+v", r)
	}
	saveAs(t, types, strings.Replace(string(good), "\t// name names the entry.", "\t// count counts.\n\t// +optional\n\tCount *int32 `json:\"count,omitempty\"`\n\n\t// name names the entry.", 1))
	rep = w.Cycle(w.changedOf(setOf([]string{types})))
	if rep.Err != nil {
		t.Fatalf("completed edit: %v", rep.Err)
	}
	if r, ran := w.Settle(); !ran || r.Err != nil || !slices.Contains(r.Files, tree.Rel(dir, deepcopy)) {
		t.Errorf("completed edit: gengo run %v: %+v", ran, r)
	}
	sameOutputs(t, "after a syntax error and its fix", dir, untouched)
}

// sameOutputs checks that the per-package Go files of the tree at dir are
// those a bare codegen run writes, and that the files of untouched were
// not written since.
func sameOutputs(t *testing.T, what, dir string, untouched map[string]time.Time) {
	t.Helper()
	for p, want := range bareOutputs(t, dir) {
		if got := readFile(t, p); !bytes.Equal(got, want) {
			t.Errorf("%s: %s differs from a bare run's:\n%s", what, tree.Rel(dir, p), tree.UnifiedDiff(p, want, got))
		}
	}
	for p, at := range untouched {
		if !modTime(t, p).Equal(at) {
			t.Errorf("%s: %s was written", what, tree.Rel(dir, p))
		}
	}
}

// saveAs writes content to p as editors do: a new file renamed over p.
func saveAs(t testing.TB, p, content string) {
	t.Helper()
	writeFile(t, p+".swp-new", content)
	if err := os.Rename(p+".swp-new", p); err != nil {
		t.Fatal(err)
	}
}

func modTime(t testing.TB, p string) time.Time {
	t.Helper()
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return info.ModTime()
}

// TestImportersDeepcopyFollowsTheTypesTheyHold checks the gengo run after
// a code edit of a type another package holds: deepcopy-gen copies a
// field of another package's struct by assignment while that struct holds
// no pointer, slice or map, so a pointer field added to example/v1's
// NestedEntry changes the deepcopy file of example/v1alpha1, which holds
// one, and the run regenerates both packages; an edit of a type only
// example/v1 reaches regenerates example/v1 alone.
func TestImportersDeepcopyFollowsTheTypesTheyHold(t *testing.T) {
	dir := withSharedCRD(t, exampleTree(t, true, false))
	replace(t, dir, sharedTypes, "\tNested examplev1.NestedConfig `json:\"nested,omitempty\"`\n",
		"\tNested examplev1.NestedConfig `json:\"nested,omitempty\"`\n\n\t// entry is one entry as example/v1 defines it.\n\t// +optional\n\tEntry examplev1.NestedEntry `json:\"entry,omitempty\"`\n")
	withGoOutputs(t, dir)
	alphaDeepcopy := filepath.Join(dir, "example/v1alpha1", generators.DeepcopyFile)
	if !contains(t, dir, "example/v1alpha1/"+generators.DeepcopyFile, "out.Entry = in.Entry") {
		t.Fatalf("fixture: example/v1alpha1's deepcopy does not assign Entry:\n%s", readFile(t, alphaDeepcopy))
	}
	in, later := goOutputs()
	w := startedWith(t, dir, Options{NewRun: newRun(dir), Outputs: in, GengoOutputs: later})
	steps := []struct {
		what, from, to string
		scope          []string
	}{
		{"a field of StableConfigTypeStatus", "\tReadyReplicas int32", "\t// observed counts.\n\t// +optional\n\tObserved *int32 `json:\"observed,omitempty\"`\n\n\tReadyReplicas int32", []string{"example/v1"}},
		{"a pointer field of NestedEntry", "\tDetail string", "\tWeight *int32 `json:\"weight,omitempty\"`\n\n\t// detail is more.\n\t// +optional\n\tDetail string", []string{"example/v1", "example/v1alpha1"}},
	}
	for _, s := range steps {
		if rep := w.Cycle(w.changedOf(setOf(replace(t, dir, stableTypes, s.from, s.to)))); rep.Err != nil {
			t.Fatalf("%s: %v", s.what, rep.Err)
		}
		rep, ran := w.Settle()
		if !ran || rep.Err != nil {
			t.Fatalf("%s: gengo run %v: %+v", s.what, ran, rep)
		}
		if !slices.Equal(rep.Scope, s.scope) {
			t.Errorf("%s: gengo run of %v, want %v", s.what, rep.Scope, s.scope)
		}
	}
	if !contains(t, dir, "example/v1alpha1/"+generators.DeepcopyFile, "in.Entry.DeepCopyInto(&out.Entry)") {
		t.Errorf("example/v1alpha1's deepcopy does not copy Entry deeply:\n%s", readFile(t, alphaDeepcopy))
	}
	sameOutputs(t, "after the edits", dir, nil)
}

// TestAMalformedTagFailsTheGengoRunNotTheWatch saves a +k8s:deepcopy-gen
// tag with a value deepcopy-gen rejects, which makes it end the process
// through klog: the run fails, writes nothing, and the watch goes on; the
// save that fixes the tag writes the file.
func TestAMalformedTagFailsTheGengoRunNotTheWatch(t *testing.T) {
	dir := exampleTree(t, true, false)
	in, later := goOutputs()
	w := startedWith(t, dir, Options{NewRun: newRun(dir), Outputs: in, GengoOutputs: later})
	deepcopy := filepath.Join(dir, "example/v1", generators.DeepcopyFile)
	before := readFile(t, deepcopy)
	for _, s := range []struct {
		tag  string
		fail bool
	}{{"pakage", true}, {"package", false}} {
		doc := filepath.Join(dir, "example/v1/doc.go")
		saveAs(t, doc, "// +k8s:deepcopy-gen="+s.tag+"\n"+strings.TrimPrefix(string(readFile(t, doc)), "// +k8s:deepcopy-gen=pakage\n"))
		if rep := w.Cycle(w.changedOf(setOf([]string{doc}))); rep.Err != nil {
			t.Fatalf("%s: cycle: %v", s.tag, rep.Err)
		}
		rep, ran := w.Settle()
		if !ran || (rep.Err != nil) != s.fail {
			t.Fatalf("%s: gengo run %v: %+v, want failure %v", s.tag, ran, rep, s.fail)
		}
		if changed := !bytes.Equal(before, readFile(t, deepcopy)); changed == s.fail {
			t.Errorf("%s: deepcopy file changed %v, want %v", s.tag, changed, !s.fail)
		}
	}
}
