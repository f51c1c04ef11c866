package manifest

import (
	"reflect"
	"sync"
	"testing"
)

const (
	memoDocA = "apiVersion: v1\nkind: A\nspec:\n  replicas: 3\n  list: [x, {y: 1.5}]\n"
	memoDocB = "apiVersion: v1\nkind: A\nspec:\n  replicas: 4\n  list: [x, {y: 1.5}]\n"
	// memoDocLib is parsed by sigs.k8s.io/yaml itself (a non-string key),
	// the other path of Parse.
	memoDocLib = "a: {1: one}\nb: [true, null]\n"
)

// sameAsParse checks that the memo returns what Parse returns for data.
func sameAsParse(t *testing.T, m *Memo, data string) map[string]any {
	t.Helper()
	got, err := m.Parse([]byte(data))
	want, wantErr := Parse([]byte(data))
	if errorText(err) != errorText(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("memo: %#v, %v; Parse: %#v, %v", got, err, want, wantErr)
	}
	return got
}

func TestMemoReturnsWhatParseReturns(t *testing.T) {
	m := NewMemo()
	for _, doc := range []string{memoDocA, memoDocLib, "", "a: [", "- list\n"} {
		sameAsParse(t, m, doc) // parsed now
		sameAsParse(t, m, doc) // from memory
	}
	if s := m.Stats(); s.Hits != 5 || s.Misses != 5 || s.Entries != 5 {
		t.Errorf("stats %+v, want 5 hits, 5 misses, 5 entries", s)
	}
}

func TestNilMemoParses(t *testing.T) {
	var m *Memo
	sameAsParse(t, m, memoDocA)
	m.Prewarm([][]byte{[]byte(memoDocA)})
	m.Advance()
	m.Wait()
	if s := m.Stats(); s != (MemoStats{}) {
		t.Errorf("a nil memo counted %+v", s)
	}
}

// A caller may do what it likes with its object: nobody else sees it.
func TestMemoObjectsAreNotShared(t *testing.T) {
	m := NewMemo()
	first := sameAsParse(t, m, memoDocA)
	first["kind"] = "changed"
	first["spec"].(map[string]any)["replicas"] = 99.0
	first["spec"].(map[string]any)["list"].([]any)[1].(map[string]any)["y"] = "changed"
	second := sameAsParse(t, m, memoDocA)
	second["spec"].(map[string]any)["list"] = nil
	sameAsParse(t, m, memoDocA)
}

// New bytes are parsed, however close to bytes parsed before.
func TestMemoIsNotStale(t *testing.T) {
	m := NewMemo()
	sameAsParse(t, m, memoDocA)
	if got := sameAsParse(t, m, memoDocB); got["spec"].(map[string]any)["replicas"] != 4.0 {
		t.Fatalf("replicas %v, want 4", got["spec"].(map[string]any)["replicas"])
	}
}

func TestMemoPrewarmParsesAhead(t *testing.T) {
	m := NewMemo()
	m.Prewarm([][]byte{[]byte(memoDocA), []byte(memoDocB), []byte(memoDocA)})
	// Parse may come while the prewarm is under way: it waits for it.
	sameAsParse(t, m, memoDocB)
	m.Wait()
	sameAsParse(t, m, memoDocA)
	if s := m.Stats(); s.Hits != 2 || s.Misses != 0 || s.Entries != 2 {
		t.Errorf("stats %+v, want 2 hits, no miss, 2 entries", s)
	}
}

func TestMemoParsesConcurrently(t *testing.T) {
	m := NewMemo()
	docs := [][]byte{[]byte(memoDocA), []byte(memoDocB), []byte(memoDocLib)}
	m.Prewarm(docs)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			data := docs[i%len(docs)]
			got, _ := m.Parse(data)
			want, _ := Parse(data)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q: got %#v", data, got)
			}
			got["kind"] = i // every caller has its own
		})
	}
	wg.Wait()
	m.Wait()
}

// Advance drops what the generation before it did not use.
func TestMemoEvictsByGeneration(t *testing.T) {
	m := NewMemo()
	sameAsParse(t, m, memoDocA)
	sameAsParse(t, m, memoDocB)
	m.Advance()
	sameAsParse(t, m, memoDocA) // B is not used in this generation
	m.Prewarm([][]byte{[]byte(memoDocLib)})
	m.Wait()
	m.Advance()
	if s := m.Stats(); s.Entries != 2 {
		t.Fatalf("%d entries after the second generation, want 2 (A and the prewarmed one)", s.Entries)
	}
	m.Advance()
	if s := m.Stats(); s.Entries != 0 {
		t.Fatalf("%d entries after a generation that used none, want 0", s.Entries)
	}
	sameAsParse(t, m, memoDocB)
	if s := m.Stats(); s.Misses != 3 {
		t.Errorf("%d misses, want 3: B was parsed again", s.Misses)
	}
}

// View lends the memo's object; Own makes it the caller's.
func TestMemoViewAndOwn(t *testing.T) {
	m := NewMemo()
	view, err := m.View([]byte(memoDocA))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := m.View([]byte(memoDocA))
	if reflect.ValueOf(view).Pointer() != reflect.ValueOf(again).Pointer() {
		t.Error("View copied the memo's object")
	}
	own := m.Own(view)
	own["spec"].(map[string]any)["replicas"] = 99.0
	sameAsParse(t, m, memoDocA)
	var none *Memo
	parsed, _ := none.View([]byte(memoDocA))
	if reflect.ValueOf(none.Own(parsed)).Pointer() != reflect.ValueOf(parsed).Pointer() {
		t.Error("without a memo, Own copied an object View parsed for the caller alone")
	}
}

func TestMemoForget(t *testing.T) {
	m := NewMemo()
	sameAsParse(t, m, memoDocA)
	sameAsParse(t, m, memoDocB)
	m.Forget([][]byte{[]byte(memoDocA), []byte("never parsed")})
	if s := m.Stats(); s.Entries != 1 {
		t.Fatalf("%d entries, want 1", s.Entries)
	}
	sameAsParse(t, m, memoDocA)
	if s := m.Stats(); s.Misses != 3 {
		t.Errorf("%d misses, want 3: A was parsed again", s.Misses)
	}
}

// TestMemoPrewarmCopiesAhead: after a prewarm, the first Parse of the
// bytes takes the copy the prewarm made, the next one copies anew; each
// caller's object is its own, whatever the others do with theirs.
func TestMemoPrewarmCopiesAhead(t *testing.T) {
	m := NewMemo()
	m.Prewarm([][]byte{[]byte(memoDocA), []byte(memoDocA)})
	m.Wait()
	view, _ := m.View([]byte(memoDocA))
	first := sameAsParse(t, m, memoDocA)
	if s := m.Stats(); s.Spares != 1 {
		t.Fatalf("the first Parse after the prewarm took %d copies, want 1", s.Spares)
	}
	first["spec"].(map[string]any)["list"].([]any)[1].(map[string]any)["y"] = "changed"
	second := sameAsParse(t, m, memoDocA)
	if s := m.Stats(); s.Spares != 1 {
		t.Errorf("the second Parse took a spare copy too (%d)", s.Spares)
	}
	if reflect.ValueOf(first).UnsafePointer() == reflect.ValueOf(second).UnsafePointer() ||
		reflect.ValueOf(first).UnsafePointer() == reflect.ValueOf(view).UnsafePointer() {
		t.Error("two callers share an object")
	}
	second["kind"] = "changed"
	if view["kind"] != "A" {
		t.Errorf("the memo's own object changed: %v", view["kind"])
	}
}
