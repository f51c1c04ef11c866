package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
	"github.com/gatedcrd/gatedcrd/tools/pkg/pipeline"
)

// Once the cycles settle, every manifest a cycle parses was read by the
// cycle before it, or written by it and parsed between the two: no cycle
// parses a file the memo could have held. The runs the watcher is given
// (one-shot options) keep nothing; it hands them its own Keep.
func TestCyclesParseNothingTheMemoCouldHold(t *testing.T) {
	dir := exampleTree(t, true, false)
	var runs []*pipeline.Run
	w, err := New(dir, Options{NewRun: func() *pipeline.Run {
		r := newRun(dir)()
		if r.Options.Keep != nil {
			t.Fatal("a one-shot run keeps something")
		}
		runs = append(runs, r)
		return r
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.seed()
	if rep := w.Cycle(nil); rep.Err != nil {
		t.Fatal(rep.Err)
	}
	file := filepath.Join(dir, stableTypes)
	cycle := func() {
		t.Helper()
		testtree.ToggleDoc(t, file)
		rep := w.Cycle(w.changedOf(setOf([]string{file})))
		if rep.Err != nil || rep.Written == 0 || len(rep.Kinds) == 0 {
			t.Fatalf("cycle: %+v", rep)
		}
		w.keep.Manifests().Wait()
	}
	cycle()
	cycle() // both contents of the edited file were seen
	before := w.keep.Manifests().Stats()
	for range 4 {
		cycle()
	}
	after := w.keep.Manifests().Stats()
	if after.Misses != before.Misses {
		t.Errorf("the settled cycles parsed %d new contents; the memo held none of them", after.Misses-before.Misses)
	}
	if after.Hits == before.Hits {
		t.Error("the settled cycles read no manifest from the memo")
	}
	for _, r := range runs {
		if r.Options.Keep != w.keep {
			t.Fatal("a cycle's run did not keep through the watcher's Keep")
		}
	}
	t.Logf("memo after the cycles: %+v", after)
}

// The memo holds what the last cycle used and wrote, not what every
// cycle did: over cycles that each write new contents (as an author's
// edits do), its size stays flat.
func TestMemoStaysSmall(t *testing.T) {
	dir := exampleTree(t, true, false)
	w := started(t, dir)
	file := filepath.Join(dir, stableTypes)
	entries := map[int]int{}
	var rep Report
	for i := 1; i <= 8; i++ {
		numberDoc(t, file, i)
		if rep = w.Cycle(w.changedOf(setOf([]string{file}))); rep.Err != nil {
			t.Fatal(rep.Err)
		}
		w.keep.Manifests().Wait()
		entries[i] = w.keep.Manifests().Stats().Entries
	}
	if entries[8] == 0 || entries[8] != entries[4] {
		t.Errorf("%d entries after cycle 4, %d after cycle 8", entries[4], entries[8])
	}
	// What a cycle replaced is gone at once.
	old := map[string][]byte{}
	for _, rel := range rep.Files {
		if filepath.Ext(rel) == ".yaml" {
			old[rel] = readFile(t, filepath.Join(dir, rel))
		}
	}
	numberDoc(t, file, 9)
	rep = w.Cycle(w.changedOf(setOf([]string{file})))
	w.keep.Manifests().Wait()
	checked := 0
	for _, rel := range rep.Files {
		if data, ok := old[rel]; ok {
			checked++
			misses := w.keep.Manifests().Stats().Misses
			if _, err := w.keep.Manifests().View(data); err != nil || w.keep.Manifests().Stats().Misses != misses+1 {
				t.Errorf("%s: the memo still holds the content the cycle replaced", rel)
			}
		}
	}
	if checked == 0 {
		t.Error("the last two cycles wrote no YAML file in common")
	}
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// numberDoc makes the first doc comment of a struct field in p say it is
// edit n, saving by rename: every n gives the file other contents.
func numberDoc(t testing.TB, p string, n int) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := regexp.MustCompile(`Edit \d+\. `).ReplaceAllString(string(data), "")
	s = strings.Replace(s, "struct {\n\t// ", fmt.Sprintf("struct {\n\t// Edit %d. ", n), 1)
	testtree.SaveByRename(t, p, s)
}
