package manifestmerge

import "unicode/utf8"

// sameJSON compares a and b as their JSON encodings would compare, without
// encoding them, for the values the lists hold (strings, booleans, and maps
// and lists of them). known is false when it cannot tell that way: numbers,
// strings that are not valid UTF-8 (which encoding alters), nil containers
// and mixed types; the caller compares the encodings then.
func sameJSON(a, b any) (same, known bool) {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		if !ok || !utf8.ValidString(x) || !utf8.ValidString(y) {
			return false, false
		}
		return x == y, true
	case bool:
		y, ok := b.(bool)
		return ok && x == y, ok
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || x == nil || y == nil {
			return false, false
		}
		return sameMaps(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || x == nil || y == nil {
			return false, false
		}
		return sameLists(x, y)
	}
	return false, false
}

func sameMaps(x, y map[string]any) (same, known bool) {
	if len(x) != len(y) {
		return false, validKeys(x) && validKeys(y)
	}
	same = true
	for k, xv := range x {
		if !utf8.ValidString(k) {
			return false, false
		}
		yv, ok := y[k]
		if !ok {
			return false, validKeys(x) && validKeys(y)
		}
		s, known := sameJSON(xv, yv)
		if !known {
			return false, false
		}
		same = same && s
	}
	// Every key of y is one of x's, all valid.
	return same, true
}

// validKeys says whether every key of m is valid UTF-8 (and so encodes
// as no other key does).
func validKeys(m map[string]any) bool {
	for k := range m {
		if !utf8.ValidString(k) {
			return false
		}
	}
	return true
}

func sameLists(x, y []any) (same, known bool) {
	if len(x) != len(y) {
		return false, true
	}
	same = true
	for i := range x {
		s, known := sameJSON(x[i], y[i])
		if !known {
			return false, false
		}
		same = same && s
	}
	return same, true
}

// sameList says whether the lists a and b are known to encode alike.
func sameList(a, b []any) bool {
	if a == nil || b == nil {
		return false
	}
	same, known := sameLists(a, b)
	return same && known
}
