package manifest

import (
	"maps"
	"math"
	"strings"
	"testing"
)

// sameAsMarshal checks that marshal, Renderer.Marshal or
// Subtrees.Marshal, renders obj as Marshal does, into a result without
// spare capacity.
func sameAsMarshal(t *testing.T, name string, marshal func(map[string]any) ([]byte, error), obj map[string]any) {
	t.Helper()
	got, err := marshal(obj)
	want, wantErr := Marshal(obj)
	if (err != nil) != (wantErr != nil) || string(got) != string(want) {
		t.Fatalf("%s: got\n%s(%v)\nMarshal =\n%s(%v)", name, got, err, want, wantErr)
	}
	if obj != nil && err == nil && cap(got) != len(got) {
		t.Fatalf("%s: %d bytes with capacity %d", name, len(got), cap(got))
	}
}

// TestRendererMatchesMarshal renders objects whose top-level values end in
// every way a value can end (block scalars keeping trailing line breaks,
// folded long strings, empty and nested containers), each twice with
// different neighbours sharing the same maps, and checks that the
// rendering is Marshal's every time.
func TestRendererMatchesMarshal(t *testing.T) {
	values := []any{
		"a\n\n", "a\n", "a\nb", " lead\n", strings.Repeat("long words ", 30), "", nil, true, 1.5, 3.0,
		[]any{}, map[string]any{}, []any{"a\n\n", []any{}}, []any{map[string]any{"x": "y\n\n"}},
		map[string]any{"description": "a\n\n", "list": []any{"b\n"}, "m": map[string]any{"n": 1.0}},
	}
	var r Renderer
	for _, v := range values {
		for _, w := range values {
			spec := map[string]any{"v": v, "w": w}
			obj := map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": w}, "spec": spec, "status": v}
			sameAsMarshal(t, "object", r.Marshal, obj)
			other := maps.Clone(obj)
			other["metadata"] = map[string]any{"annotations": map[string]any{"a": "b"}}
			other["Zeta"] = w
			sameAsMarshal(t, "object sharing the spec", r.Marshal, other)
			sameAsMarshal(t, "values", r.Marshal, map[string]any{"a": v, "b": w, "c": spec})
		}
	}
	// Keys the emitter orders by other rules than strings, and objects
	// Marshal rejects, are marshalled whole.
	sameAsMarshal(t, "digits", r.Marshal, map[string]any{"a10": 1.0, "a9": 2.0, "b": map[string]any{}})
	sameAsMarshal(t, "error", r.Marshal, map[string]any{"a": map[string]any{"x": 1.0}, "b": []any{math.NaN()}})
}
