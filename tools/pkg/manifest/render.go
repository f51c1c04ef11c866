package manifest

import (
	"reflect"
	"sort"
	"unsafe"
)

// Renderer marshals manifests exactly as Marshal does, and renders a
// top-level map value shared by several of them (the same map) once. The
// files of one merged CRD differ in their annotations only and share the
// rest, the spec above all, which is most of every file.
//
// YAML writes the entries of a top-level block mapping one after the
// other, each from column 0, whatever came before: the document of obj is
// the documents of its one-entry maps {key: value}, in key order. The
// emitter orders keys made of ASCII letters as strings; objects with other
// top-level keys are marshalled whole.
//
// A Renderer remembers the maps it rendered: they must not change while it
// is in use. It is not safe for concurrent use.
type Renderer struct {
	// Subtrees, when set, renders what the Renderer renders (its entries
	// and the objects it marshals whole); nil marshals with Marshal.
	Subtrees *Subtrees
	entries  map[entryKey][]byte
}

type entryKey struct {
	key   string
	value unsafe.Pointer
}

// Marshal returns Marshal(obj).
func (r *Renderer) Marshal(obj map[string]any) ([]byte, error) {
	keys, ok := letterKeys(obj)
	if !ok || len(keys) < 2 {
		return r.Subtrees.Marshal(obj)
	}
	parts := make([][]byte, len(keys))
	size := 0
	for i, k := range keys {
		part, err := r.entry(k, obj[k])
		if err != nil {
			return r.Subtrees.Marshal(obj) // for its error
		}
		parts[i] = part
		size += len(part)
	}
	out := make([]byte, 0, size)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

// entry renders the one-entry map {key: value}, once per map value.
func (r *Renderer) entry(key string, value any) ([]byte, error) {
	m, isMap := value.(map[string]any)
	if !isMap || m == nil {
		return r.Subtrees.Marshal(map[string]any{key: value})
	}
	id := entryKey{key, reflect.ValueOf(m).UnsafePointer()}
	if data, ok := r.entries[id]; ok {
		return data, nil
	}
	data, err := r.Subtrees.Marshal(map[string]any{key: value})
	if err != nil {
		return nil, err
	}
	if r.entries == nil {
		r.entries = map[entryKey][]byte{}
	}
	r.entries[id] = data
	return data, nil
}

// letterKeys returns the keys of obj in the emitter's order, and false
// when a key holds anything but ASCII letters (whose order the emitter
// decides by other rules).
func letterKeys(obj map[string]any) ([]string, bool) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if k == "" {
			return nil, false
		}
		for i := 0; i < len(k); i++ {
			if c := k[i] | 0x20; c < 'a' || c > 'z' {
				return nil, false
			}
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, true
}
