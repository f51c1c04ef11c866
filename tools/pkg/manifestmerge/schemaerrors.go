package manifestmerge

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// fitErrors parses obj with crdType and, when it does not fit, returns
// every problem sorted by path. structured-merge-diff stops at the first
// unknown field it meets while iterating a Go map, so a manifest with two
// unknown fields would name a different one from run to run; removing each
// reported field from a copy and parsing again finds them all, in a stable
// order. At most 100 rounds are made.
func fitErrors(crdType typed.ParseableType, obj map[string]any) (*typed.TypedValue, []string) {
	value, err := crdType.FromUnstructured(obj)
	if err == nil {
		return value, nil
	}
	work, _ := deepCopy(obj).(map[string]any)
	var found []string
	for round := 0; err != nil && round < 100; round++ {
		var verrs typed.ValidationErrors
		if !errors.As(err, &verrs) || len(verrs) == 0 {
			found = append(found, err.Error())
			break
		}
		removed := false
		for _, ve := range verrs {
			found = append(found, ve.Error())
			removed = deletePath(work, ve.Path) || removed
		}
		if !removed {
			break
		}
		_, err = crdType.FromUnstructured(work)
	}
	sort.Strings(found)
	return nil, dedupe(found)
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// deletePath removes the element at a structured-merge-diff path such as
// .spec.versions[name="v1"].bogus from obj and reports whether it did. Field
// names are not escaped in such paths (a key may contain '.' or '['), so
// each step is matched against the keys actually present, longest first.
func deletePath(obj map[string]any, path string) bool {
	return deleteAt(obj, path)
}

func deleteAt(cur any, path string) bool {
	switch v := cur.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			return len(keys[i]) > len(keys[j]) || len(keys[i]) == len(keys[j]) && keys[i] < keys[j]
		})
		for _, k := range keys {
			if !strings.HasPrefix(path, "."+k) {
				continue
			}
			rest := path[len(k)+1:]
			if rest == "" {
				delete(v, k)
				return true
			}
			if deleteAt(v[k], rest) {
				return true
			}
		}
	case []any:
		if !strings.HasPrefix(path, "[") {
			return false
		}
		end := selectorEnd(path)
		if end < 0 {
			return false
		}
		if next := selectElement(v, path[1:end]); next != nil {
			return deleteAt(next, path[end+1:])
		}
	}
	return false
}

// selectorEnd returns the index of the ']' closing the selector that opens
// path, skipping over quoted values, or -1.
func selectorEnd(path string) int {
	quoted := false
	for i := 1; i < len(path); i++ {
		switch {
		case path[i] == '\\' && quoted:
			i++
		case path[i] == '"':
			quoted = !quoted
		case path[i] == ']' && !quoted:
			return i
		}
	}
	return -1
}

// selectElement finds the list element a selector names: an index or
// key="value" pairs (values are JSON-quoted).
func selectElement(list []any, selector string) any {
	if i, err := strconv.Atoi(selector); err == nil {
		if i >= 0 && i < len(list) {
			return list[i]
		}
		return nil
	}
	want := map[string]string{}
	for _, pair := range strings.Split(selector, ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok {
			return nil
		}
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		want[k] = v
	}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		match := true
		for k, v := range want {
			if s, _ := m[k].(string); s != v {
				match = false
			}
		}
		if match {
			return e
		}
	}
	return nil
}
