package manifest

import (
	"maps"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
)

// The YAML emitter (go.yaml.in/yaml/v2, under sigs.k8s.io/yaml) sorts the
// keys of every Go map it writes with a comparison of its own, not byte
// order. Two string keys are compared at their first differing character:
// non-letters come before letters, letters and other non-digits compare by
// code point, a shorter key before one it is a prefix of; but where both
// characters are non-letters, the runs of digits starting there are
// compared as numbers first (then by length). A digit run compared from
// the middle is read from the differing character on, while a letter
// ending it is only seen as "a letter", so keys with digits can be ordered
// in a cycle: "9B" < "11" < "911" < "9B" (the first two by number, the
// last because the digit 1 comes before the letter B). The library's sort
// then returns one of several orders depending on the order Go's map
// iteration, which is random, hands it the keys: the output of
// sigs.k8s.io/yaml changes from run to run. Without digits the comparison
// is a plain lexicographic order and every sort agrees.
//
// Marshal therefore hands the emitter any map with a digit in a key as a
// yaml.MapSlice in the order keyOrder gives: the library's own sort,
// started from the keys in byte order. Where the library's comparison
// orders the keys consistently that is the one order any sort can return,
// so the bytes are sigs.k8s.io/yaml's; where it does not, it is the order
// the library itself writes on a run whose map iteration happens to yield
// the keys in byte order, the same on every run.
//
// Only maps with at least three keys holding a digit are ordered here:
// two keys have one order whatever the comparison, and a key without a
// digit cannot be part of a cycle. Compared with such a key x, another
// key is decided at their first difference by x's character, a letter or
// another non-digit, or by x ending; so if z < x < y, the first
// difference of z and y is at the earlier of the two positions, or at the
// same one with z's character ranked below y's, and z < y there too.
// TestCyclesHaveThreeKeysWithDigits checks this on all short keys.

// hasDigit reports whether s holds a character the emitter reads as a
// digit, the only ones that can make its key order inconsistent.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			return true
		}
		if c >= utf8.RuneSelf {
			for _, r := range s[i:] {
				if unicode.IsDigit(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// keyOrder returns the keys of m in the order described above.
func keyOrder(m map[string]any) []string {
	keys := slices.Sorted(maps.Keys(m))
	sort.Sort(emitterKeys(keys))
	return keys
}

// orderedMap returns m as a yaml.MapSlice in keyOrder.
func orderedMap(m map[string]any) yamlv2.MapSlice {
	keys := keyOrder(m)
	s := make(yamlv2.MapSlice, len(keys))
	for i, k := range keys {
		s[i] = yamlv2.MapItem{Key: k, Value: m[k]}
	}
	return s
}

// emitterKeys sorts string keys with the emitter's comparison.
type emitterKeys []string

func (k emitterKeys) Len() int           { return len(k) }
func (k emitterKeys) Swap(i, j int)      { k[i], k[j] = k[j], k[i] }
func (k emitterKeys) Less(i, j int) bool { return emitterLess(k[i], k[j]) }

// emitterLess reports whether the emitter writes key a before key b.
// Characters are compared as the library compares the elements of
// []rune(key): invalid UTF-8 bytes are U+FFFD each.
func emitterLess(a, b string) bool {
	// nonzeroRun: the digits ending the common prefix include a non-zero
	// one, which makes a zero at the differing character count as a digit
	// inside a number rather than a leading zero.
	nonzeroRun := false
	for a != "" && b != "" {
		x, xn := utf8.DecodeRuneInString(a)
		y, yn := utf8.DecodeRuneInString(b)
		if x == y {
			if unicode.IsDigit(x) {
				nonzeroRun = nonzeroRun || x != '0'
			} else {
				nonzeroRun = false
			}
			a, b = a[xn:], b[yn:]
			continue
		}
		xl, yl := unicode.IsLetter(x), unicode.IsLetter(y)
		switch {
		case xl && yl:
			return x < y
		case xl != yl:
			return yl
		}
		var start int64
		if nonzeroRun && (x == '0' || y == '0') {
			start = 1
		}
		an, alen := digitRun(a, start)
		bn, blen := digitRun(b, start)
		if an != bn {
			return an < bn
		}
		if alen != blen {
			return alen < blen
		}
		return x < y
	}
	return len(a) < len(b)
}

// digitRun returns the value (int64, wrapping on overflow as the library's
// does) and length in runes of the digits s starts with, the value
// accumulated onto start.
func digitRun(s string, start int64) (n int64, length int) {
	n = start
	for _, r := range s {
		if !unicode.IsDigit(r) {
			break
		}
		n = n*10 + int64(r-'0')
		length++
	}
	return n, length
}
