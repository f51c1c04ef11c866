package watch

import (
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

func TestQuietPeriodOfASave(t *testing.T) {
	const debounce = 75 * time.Millisecond
	ev := func(op fsnotify.Op, name string) fsnotify.Event { return fsnotify.Event{Name: name, Op: op} }
	tests := []struct {
		name   string
		events []fsnotify.Event
		want   time.Duration // after the last event
	}{
		{"a Go file renamed into place", []fsnotify.Event{ev(fsnotify.Create, "/t/a/types.go")}, 0},
		{"two Go files renamed into place", []fsnotify.Event{ev(fsnotify.Create, "/t/a/types.go"), ev(fsnotify.Create, "/t/a/more.go")}, 0},
		{"a Go file written in place", []fsnotify.Event{ev(fsnotify.Write, "/t/a/types.go")}, debounce},
		{"a Go file created, then written", []fsnotify.Event{ev(fsnotify.Create, "/t/a/types.go"), ev(fsnotify.Write, "/t/a/types.go")}, debounce},
		{"a write, then a Go file renamed into place", []fsnotify.Event{ev(fsnotify.Write, "/t/a/other.go"), ev(fsnotify.Create, "/t/a/types.go")}, debounce},
		{"a YAML input renamed into place", []fsnotify.Event{ev(fsnotify.Create, "/t/a/manual-override-crd-manifests/x.yaml")}, debounce},
		{"a Go file removed", []fsnotify.Event{ev(fsnotify.Remove, "/t/a/types.go")}, debounce},
		{"a test file renamed into place", []fsnotify.Event{ev(fsnotify.Create, "/t/a/types_test.go")}, debounce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, retry := range []bool{false, true} {
				q := quiet{retry: retry}
				var got time.Duration
				for _, e := range tc.events {
					got = q.after(e, debounce)
				}
				want := tc.want
				if retry && want == 0 {
					want = RenameSettle // a cycle of the save was superseded
				}
				if got != want {
					t.Errorf("retry %v: quiet period %v, want %v", retry, got, want)
				}
				q.reset()
				if got := q.after(ev(fsnotify.Create, "/t/a/types.go"), debounce); got != 0 {
					t.Errorf("retry %v: the next save's rename waits %v, want 0", retry, got)
				}
			}
		})
	}
	q := quiet{retry: true}
	if got := q.after(ev(fsnotify.Create, "/t/a/types.go"), time.Millisecond); got != time.Millisecond {
		t.Errorf("a debounce shorter than RenameSettle: %v", got)
	}
}

func TestCompleteTellsHalfWrittenGoFiles(t *testing.T) {
	dir := t.TempDir()
	whole := "package a\n\n// T is a type.\ntype T struct {\n\tA string `json:\"a\"`\n}\n"
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.go", whole)
	half := write("half.go", whole[:strings.Index(whole, "A string")])
	yaml := write("x.yaml", "a: [")
	gone := filepath.Join(dir, "gone.go")
	for _, tc := range []struct {
		name    string
		pending []string
		want    bool
	}{
		{"whole Go file", []string{good}, true},
		{"half-written Go file", []string{good, half}, false},
		{"a YAML file is not checked", []string{good, yaml}, true},
		{"a removed file is left to the cycle", []string{gone}, true},
	} {
		pending := map[string]bool{}
		for _, p := range tc.pending {
			pending[p] = true
		}
		parsed := map[string]parsedGo{}
		if got := complete(pending, parsed); got != tc.want {
			t.Errorf("%s: complete = %v, want %v", tc.name, got, tc.want)
		}
		if got := parsed[good]; tc.want && slices.Contains(tc.pending, good) && (got.sum != sha256.Sum256([]byte(whole)) || !maps.Equal(got.decls, declHashes([]byte(whole)))) {
			t.Errorf("%s: complete kept %v for the whole file, want its hash and declarations", tc.name, got)
		}
	}
}

// TestChangedOfTakesTheSettlesParse: the declarations complete hashed for
// a file are those changedOf records, unless the file changed since.
func TestChangedOfTakesTheSettlesParse(t *testing.T) {
	p := filepath.Join(t.TempDir(), "types.go")
	src := []byte("package v1\n\ntype A struct{}\n")
	if err := os.WriteFile(p, src, 0o644); err != nil {
		t.Fatal(err)
	}
	marker := map[string][32]byte{"": {1}, "type A": {2}}
	for _, tc := range []struct {
		name string
		sum  [32]byte
		want map[string][32]byte
	}{
		{"same content", sha256.Sum256(src), marker},
		{"changed since", sha256.Sum256([]byte("package v1\n")), declHashes(src)},
	} {
		w := &Watcher{seen: map[string][32]byte{}, decls: map[string]map[string][32]byte{}, parsed: map[string]parsedGo{p: {sum: tc.sum, decls: marker}}, keep: pipeline.NewKeep()}
		if changed := w.changedOf(map[string]bool{p: true}); !slices.Equal(changed, []string{p}) {
			t.Fatalf("%s: changed %v", tc.name, changed)
		}
		if !maps.Equal(w.decls[p], tc.want) {
			t.Errorf("%s: recorded %v, want %v", tc.name, w.decls[p], tc.want)
		}
		if len(w.parsed) != 0 {
			t.Errorf("%s: %d parsed file(s) kept after the save", tc.name, len(w.parsed))
		}
	}
}

// TestRenameSavesSkipTheDebounce drives the watcher through file
// notifications: a save by rename of a whole Go file starts its cycle
// at once, one that breaks the syntax (what a half-written
// file looks like) and a write in place after the full debounce.
func TestRenameSavesSkipTheDebounce(t *testing.T) {
	dir := exampleTree(t, true, false)
	bg := runWatcher(t, dir, Options{})
	if r := bg.next("first cycle"); r.Err != nil || r.Waited != 0 {
		t.Fatalf("first cycle: %+v\n%s", r, bg.out.String())
	}
	debounce := 30 * time.Millisecond // runWatcher's

	replace(t, dir, stableTypes, "type NestedConfig struct {", "// NestedConfig is renamed into place.\ntype NestedConfig struct {")
	if r := bg.next("rename save"); r.Err != nil || r.Waited != 0 {
		t.Errorf("a whole Go file renamed into place: waited %v, want none (%+v)", r.Waited, r)
	}

	replace(t, dir, stableTypes, "type NestedConfig struct {", "type NestedConfig struct {{")
	if r := bg.next("broken rename save"); r.Err == nil || r.Waited != debounce {
		t.Errorf("a Go file that does not parse: waited %v, want %v (%+v)", r.Waited, debounce, r)
	}

	p := filepath.Join(dir, stableTypes)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(data), "type NestedConfig struct {{", "type NestedConfig struct {", 1)
	if err := os.WriteFile(p, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := bg.next("save in place"); r.Err != nil || r.Waited != debounce {
		t.Errorf("a Go file written in place: waited %v, want %v (%+v)", r.Waited, debounce, r)
	}
	if err := bg.stop(); err != nil {
		t.Fatal(err)
	}
}

// TestParsesDuringTheWait: a Go file written in place is parsed when its
// notification comes, while the save waits for quiet, and what changedOf
// takes for it is that parse; one renamed into place, whose cycle starts
// at once, is left to complete.
func TestParsesDuringTheWait(t *testing.T) {
	dir := exampleTree(t, true, false)
	w := started(t, dir)
	w.save = save{pending: map[string]bool{}}
	defer func() { w.save.timer.Stop() }()
	p := filepath.Join(dir, stableTypes)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := []byte(strings.Replace(string(data), "type StableConfigTypeStatus struct {\n\t// ", "type StableConfigTypeStatus struct {\n\t// Edited. ", 1))
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	w.collect(fsnotify.Event{Name: p, Op: fsnotify.Create})
	if _, ok := w.parsed[p]; ok || w.save.waited != 0 {
		t.Fatalf("a rename: parsed before its cycle starts (waits %v)", w.save.waited)
	}
	w.collect(fsnotify.Event{Name: p, Op: fsnotify.Write})
	got, ok := w.parsed[p]
	if !ok || got.sum != sha256.Sum256(edited) || !maps.Equal(got.decls, declHashes(edited)) {
		t.Fatalf("a write in place: parsed %v, want the saved content's declarations", got)
	}
	marker := map[string][32]byte{"": {1}}
	w.parsed[p] = parsedGo{sum: got.sum, decls: marker}
	w.changedOf(w.save.pending)
	if !maps.Equal(w.decls[p], marker) {
		t.Errorf("changedOf parsed the file again")
	}
}
