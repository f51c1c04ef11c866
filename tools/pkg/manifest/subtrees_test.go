package manifest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// subtreesMarshal is s.Marshal on maps, for sameAsMarshal.
func subtreesMarshal(s *Subtrees) func(map[string]any) ([]byte, error) {
	return func(m map[string]any) ([]byte, error) { return s.Marshal(m) }
}

// subtreeScalars are the values a generated document's leaves take: every
// way a scalar ends a mapping's text (block scalars keeping their final
// line breaks, which make the emitter end a stream with "..."), long plain
// strings the emitter wraps at a column, values it quotes.
var subtreeScalars = []any{
	"a\n\n", "a\n", "a\nb", " lead\n", "", "x", "on", "3", "- a", "a: b", "é\n\n",
	strings.Repeat("long words ", 12), strings.Repeat("wrapped at eighty columns ", 9) + "end",
	nil, true, false, 1.0, 1.5, -3.0, 1e21,
}

// subtreeKeys are the keys of generated mappings: plain, quoted, with
// digits (three of them make Marshal order the map itself), too long to be
// a simple key.
var subtreeKeys = []string{
	"a", "b", "description", "properties", "type", "x-kubernetes-validations", "on", "1", "v1", "v2", "v10",
	"key with spaces", strings.Repeat("k", 101), strings.Repeat("l", 130),
}

// randomDocument builds a nested document of the given depth from rnd.
func randomDocument(rnd *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range 1 + rnd.IntN(6) {
		m[subtreeKeys[rnd.IntN(len(subtreeKeys))]] = randomValue(rnd, depth)
	}
	return m
}

func randomValue(rnd *rand.Rand, depth int) any {
	if depth == 0 {
		return subtreeScalars[rnd.IntN(len(subtreeScalars))]
	}
	switch rnd.IntN(8) {
	case 0:
		return []any{}
	case 1:
		return map[string]any{}
	case 2:
		var l []any
		for range 1 + rnd.IntN(3) {
			l = append(l, randomValue(rnd, depth-1))
		}
		return l
	case 3, 4:
		return subtreeScalars[rnd.IntN(len(subtreeScalars))]
	}
	return randomDocument(rnd, depth-1)
}

// changeOneLeaf replaces one scalar of a deep copy of doc, reached by a
// random path through its mappings, and returns the copy.
func changeOneLeaf(rnd *rand.Rand, doc map[string]any) map[string]any {
	out := runtime.DeepCopyJSONValue(doc).(map[string]any)
	m := out
	for {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			return out
		}
		k := keys[rnd.IntN(len(keys))]
		if child, ok := m[k].(map[string]any); ok && len(child) > 0 && rnd.IntN(4) > 0 {
			m = child
			continue
		}
		m[k] = subtreeScalars[rnd.IntN(len(subtreeScalars))]
		return out
	}
}

// TestSubtreesMatchMarshal renders random documents with every mapping
// rendered on its own (minSize 0) or only larger ones, then again (from
// what was kept), then with one leaf changed, and checks each rendering
// against Marshal.
func TestSubtreesMatchMarshal(t *testing.T) {
	for _, minSize := range []int{0, 64, 512} {
		s := NewSubtrees()
		s.minSize = minSize
		rnd := rand.New(rand.NewPCG(uint64(minSize), 7))
		for i := range 300 {
			doc := randomDocument(rnd, 1+rnd.IntN(6))
			name := fmt.Sprintf("min %d, document %d", minSize, i)
			sameAsMarshal(t, name, subtreesMarshal(s), doc)
			sameAsMarshal(t, name+" again", subtreesMarshal(s), doc)
			for j := range 3 {
				doc = changeOneLeaf(rnd, doc)
				sameAsMarshal(t, fmt.Sprintf("%s, change %d", name, j), subtreesMarshal(s), doc)
			}
		}
	}
}

// TestSubtreesRenderOnlyThePathToAChange checks that a document with one
// leaf changed keeps the renderings of every mapping off the path to it:
// only the mappings on that path are rendered and kept again.
func TestSubtreesRenderOnlyThePathToAChange(t *testing.T) {
	leaf := func(i int) map[string]any {
		return map[string]any{"description": fmt.Sprintf("field %d", i), "type": "string"}
	}
	fields := map[string]any{}
	for i := range 10 {
		fields[fmt.Sprintf("field%c", 'a'+i)] = leaf(i)
	}
	doc := map[string]any{"spec": map[string]any{"schema": map[string]any{"properties": fields}}}
	s := NewSubtrees()
	s.minSize = 0
	sameAsMarshal(t, "first", subtreesMarshal(s), doc)
	before := len(s.texts)
	if before != 13 { // spec, schema, properties and ten fields
		t.Fatalf("kept %d renderings, want 13", before)
	}
	changed := changeDescription(doc, "fieldc", "changed")
	sameAsMarshal(t, "changed", subtreesMarshal(s), changed)
	if added := len(s.texts) - before; added != 4 { // spec, schema, properties, fieldc
		t.Errorf("a changed field added %d renderings, want 4", added)
	}
	sameAsMarshal(t, "changed back", subtreesMarshal(s), doc)
	if len(s.texts) != before+4 {
		t.Errorf("rendering the first document again kept %d renderings, want %d", len(s.texts), before+4)
	}
}

// TestSubtreesAdvanceForgetsUnused checks that Advance forgets the
// renderings the last two generations did not use, and keeps those used
// only through a rendering that holds them.
func TestSubtreesAdvanceForgetsUnused(t *testing.T) {
	fields := map[string]any{}
	for i := range 10 {
		fields[fmt.Sprintf("field%c", 'a'+i)] = map[string]any{"description": fmt.Sprintf("field %d", i)}
	}
	fields["fieldb"].(map[string]any)["items"] = map[string]any{"type": "string"}
	doc := map[string]any{"spec": map[string]any{"schema": map[string]any{"properties": fields}}}
	s := NewSubtrees()
	s.minSize = 0
	sameAsMarshal(t, "first", subtreesMarshal(s), doc)
	if len(s.texts) != 14 { // spec, schema, properties, ten fields, fieldb's items
		t.Fatalf("kept %d renderings, want 14", len(s.texts))
	}
	s.Advance()
	sameAsMarshal(t, "changed", subtreesMarshal(s), changeDescription(doc, "fieldc", "changed"))
	s.Advance()
	// The first document's spec, schema, properties and fieldc are gone;
	// fieldb's items stay, used through fieldb.
	if len(s.texts) != 14 || s.bytes != ownBytes(s) {
		t.Errorf("after a generation unused: %d renderings of %d bytes (counted %d), want 14", len(s.texts), ownBytes(s), s.bytes)
	}
	s.Advance()
	if len(s.texts) != 0 || s.bytes != 0 {
		t.Errorf("after two generations unused: %d renderings, %d bytes, want none", len(s.texts), s.bytes)
	}
	sameAsMarshal(t, "after forgetting", subtreesMarshal(s), doc)
}

func ownBytes(s *Subtrees) int {
	n := 0
	for _, r := range s.texts {
		n += r.own
	}
	return n
}

func changeDescription(doc map[string]any, field, text string) map[string]any {
	out := runtime.DeepCopyJSONValue(doc).(map[string]any)
	props := out["spec"].(map[string]any)["schema"].(map[string]any)["properties"].(map[string]any)
	props[field].(map[string]any)["description"] = text
	return out
}

// TestSubtreesConcurrent renders documents that share mappings on
// several goroutines at once, with generations advancing meanwhile, as
// the render workers of stages 2 and 3 do (run it with -race).
func TestSubtreesConcurrent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	shared := randomDocument(rnd, 5)
	var docs []map[string]any
	for range 8 {
		docs = append(docs, changeOneLeaf(rnd, shared))
	}
	want := make([][]byte, len(docs))
	for i, d := range docs {
		var err error
		if want[i], err = Marshal(d); err != nil {
			t.Fatal(err)
		}
	}
	s := NewSubtrees()
	s.minSize = 0
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				k := (g + i) % len(docs)
				if got, err := s.Marshal(docs[k]); err != nil || string(got) != string(want[k]) {
					t.Errorf("goroutine %d, document %d: differs from Marshal (%v)", g, k, err)
					return
				}
				if i%10 == 0 {
					s.Advance()
				}
			}
		})
	}
	wg.Wait()
}

// TestSubtreesForgetBeyondBudget checks that a Subtrees forgets what it
// kept once it would hold more than its budget, and still renders right.
func TestSubtreesForgetBeyondBudget(t *testing.T) {
	s := NewSubtrees()
	s.minSize = 0
	s.budget = 200
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		sameAsMarshal(t, fmt.Sprintf("document %d", i), subtreesMarshal(s), randomDocument(rnd, 4))
		if s.bytes > s.budget {
			t.Fatalf("holds %d bytes, budget %d", s.bytes, s.budget)
		}
	}
}

// TestSubtreesReferenceManifests renders every reference CRD manifest,
// again from what was kept, and with a description deep in its schema
// changed, and checks the bytes.
func TestSubtreesReferenceManifests(t *testing.T) {
	root := referenceData(t)
	s := NewSubtrees()
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") || strings.Contains(p, "/tests/") ||
			strings.Contains(p, "payload-featuregates") || strings.HasSuffix(p, "featuregated-crd-manifests.yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := Parse(data)
		if err != nil {
			return err
		}
		n++
		for _, pass := range []string{"first", "again"} {
			got, err := s.Marshal(m)
			if err != nil || string(got) != string(data) {
				t.Errorf("%s (%s): Subtrees.Marshal differs from the file (%v)", p, pass, err)
			}
		}
		if changeDeepestDescription(m) {
			sameAsMarshal(t, p+", a description changed", subtreesMarshal(s), m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Fatalf("only %d manifests under %s", n, root)
	}
}

// changeDeepestDescription changes the description of the deepest
// mapping of m that has one; false when none has.
func changeDeepestDescription(m map[string]any) bool {
	var deepest map[string]any
	depth := -1
	var walk func(v any, d int)
	walk = func(v any, d int) {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["description"].(string); ok && d > depth {
				deepest, depth = x, d
			}
			for _, e := range x {
				walk(e, d+1)
			}
		case []any:
			for _, e := range x {
				walk(e, d+1)
			}
		}
	}
	walk(m, 0)
	if deepest == nil {
		return false
	}
	deepest["description"] = deepest["description"].(string) + " Changed, and long enough to be wrapped by the emitter at its column."
	return true
}
