package watch

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// TestPayloadEditsReachTheCycle: the watcher keeps the payload directory
// it read (payload.Memo) from cycle to cycle, and a cycle after an edit
// of a payload file must read the edit. Enabling a gate in one file
// changes the merged outputs of that profile and feature set; restoring
// the file restores them. Each cycle's tree must be the one-shot run's.
func TestPayloadEditsReachTheCycle(t *testing.T) {
	dir := exampleTree(t, true, false)
	w := started(t, dir)
	p := filepath.Join(dir, "payload-manifests/featuregates/featureGate-4-10-SelfManagedHA-Default.yaml")
	before := testtree.Snapshot(t, dir)
	original, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edits := []func(){
		func() { enableGate(t, p, "Example") },
		func() { writeFile(t, p, string(original)) },
	}
	for i, edit := range edits {
		edit()
		if rep := w.Cycle(w.changedOf(setOf([]string{p}))); rep.Err != nil || rep.Written == 0 {
			t.Fatalf("cycle after edit %d: %+v", i, rep)
		}
		want, err := oneShot(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		sameTree(t, "after the payload edit", want, testtree.Snapshot(t, dir))
	}
	sameTree(t, "after undoing the payload edit", before, testtree.Snapshot(t, dir))
}

// enableGate moves gate from the disabled gates of the payload file p to
// its enabled ones.
func enableGate(t testing.TB, p, gate string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	entry := doc["status"].(map[string]any)["featureGates"].([]any)[0].(map[string]any)
	disabled, _ := entry["disabled"].([]any)
	i := slices.IndexFunc(disabled, func(n any) bool { return n.(map[string]any)["name"] == gate })
	if i < 0 {
		t.Fatalf("%s: gate %s is not disabled", p, gate)
	}
	entry["enabled"] = append(entry["enabled"].([]any), disabled[i])
	entry["disabled"] = slices.Delete(disabled, i, i+1)
	out, err := json.MarshalIndent(doc, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, string(out)+"\n")
}
