package manifest

import (
	"strings"
	"testing"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// libraryWritesFirst reports whether marshal (sigs.k8s.io/yaml's, or the
// emitter's under it, which is faster) writes key a before key b. With two
// keys its sort has one answer whatever order it gets them.
func libraryWritesFirst(t testing.TB, marshal func(any) ([]byte, error), a, b string) bool {
	t.Helper()
	out, err := marshal(map[string]int{a: 0, b: 1})
	if err != nil {
		// sigs.k8s.io/yaml cannot read back its JSON of a key over 1024
		// characters: no order to compare with.
		t.Skipf("%q, %q: %v", a, b, err)
	}
	var items yamlv2.MapSlice
	if err := yamlv2.Unmarshal(out, &items); err != nil || len(items) != 2 {
		t.Fatalf("reading back %q: %v", out, err)
	}
	return items[0].Value == 0
}

// TestLibraryKeyOrderIsCyclic demonstrates why the order has to be fixed
// here: sigs.k8s.io/yaml orders "9B" before "11" (9 < 11), "11" before
// "911" (11 < 911) and "911" before "9B" (the digit 1 before the letter
// B), so the three keys of one map come out in an order that depends on
// Go's map iteration; so do field names such as port1Name, port2, port10.
func TestLibraryKeyOrderIsCyclic(t *testing.T) {
	for _, cycle := range [][]string{{"9B", "11", "911"}, {"port1Name", "port2", "port10"}} {
		for i, a := range cycle {
			b := cycle[(i+1)%len(cycle)]
			if !libraryWritesFirst(t, yaml.Marshal, a, b) {
				t.Fatalf("sigs.k8s.io/yaml writes %q before %q", b, a)
			}
		}
	}
	seen := map[string]bool{}
	for i := 0; i < 10000 && len(seen) < 2; i++ {
		out, err := yaml.Marshal(map[string]any{"9B": "", "11": "", "911": ""})
		if err != nil {
			t.Fatal(err)
		}
		seen[string(out)] = true
	}
	if len(seen) < 2 {
		t.Fatal("sigs.k8s.io/yaml wrote the same order every time")
	}
}

// TestMarshalOrdersCyclicKeysTheSameEveryRun checks the order Marshal picks
// for keys the library orders in a cycle: the library's sort started from
// byte order ("11", "911", "9B", which its sort leaves as they are), in
// maps built in different orders, at the top and nested, on the short cut
// and on the detour (taken for a NEL in a string).
func TestMarshalOrdersCyclicKeysTheSameEveryRun(t *testing.T) {
	const want = "\"11\": b\n\"911\": c\n9B:\n  \"11\": b\n  \"911\": c\n  9B: a\n"
	keys := []string{"9B", "11", "911"}
	for i := range 60 {
		inner, outer := map[string]any{}, map[string]any{}
		for j := range keys {
			k := keys[(i+j)%len(keys)]
			v := string(rune('a' + strings.Index("9B 11 911", k)/3))
			inner[k], outer[k] = v, v
		}
		outer["9B"] = inner
		wantHere := want
		if i%2 == 1 {
			inner["911"], outer["911"] = "c\u0085", []any{"c\u0085"}
			wantHere = "\"11\": b\n\"911\":\n- 'c '\n9B:\n  \"11\": b\n  \"911\": 'c '\n  9B: a\n"
		}
		got, err := Marshal(outer)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != wantHere {
			t.Fatalf("Marshal = %q, want %q", got, wantHere)
		}
	}
}

// TestEmitterLessMatchesLibrary compares emitterLess with the order
// sigs.k8s.io/yaml writes every pair of short keys in: letters, digits
// (ASCII and not), zeros, punctuation and integer overflow. (The emitter
// is what sigs.k8s.io/yaml ends in; FuzzEmitterLess asks that library.)
func TestEmitterLessMatchesLibrary(t *testing.T) {
	keys := allStrings("09aB-", 3)
	keys = append(keys, allStrings("1é٣５._ ", 2)...)
	keys = append(keys, "9223372036854775807", "9223372036854775808", "99999999999999999999", "18446744073709551617a",
		"a0001", "a001b", "a10", "a100", "x010", "x01", "x0", "v1beta1", "v10", "v2", "ipv4Address", "ipv40", "ipv6")
	for i, a := range keys {
		for _, b := range keys[i+1:] {
			if emitterLess(a, b) != libraryWritesFirst(t, yamlv2.Marshal, a, b) || emitterLess(a, b) == emitterLess(b, a) {
				t.Errorf("emitterLess(%q, %q) = %v, the emitter disagrees", a, b, emitterLess(a, b))
			}
		}
	}
}

// TestCyclesHaveThreeKeysWithDigits checks what lets Marshal leave maps
// with fewer than three keys holding a digit to the library: every three
// keys the emitter orders in a cycle have a digit each.
func TestCyclesHaveThreeKeysWithDigits(t *testing.T) {
	keys := allStrings("09aB-", 3)
	cycles := 0
	eachCycle(keys, func(a, b, c string) bool {
		cycles++
		if !hasDigit(a) || !hasDigit(b) || !hasDigit(c) {
			t.Fatalf("%q < %q < %q < %q", a, b, c, a)
		}
		return true
	})
	if cycles == 0 {
		t.Fatal("no cycle found")
	}
}

// allStrings returns the strings of 1 to n characters of alphabet.
func allStrings(alphabet string, n int) []string {
	out := []string{}
	prev := []string{""}
	for range n {
		var next []string
		for _, p := range prev {
			for _, r := range alphabet {
				next = append(next, p+string(r))
			}
		}
		out = append(out, next...)
		prev = next
	}
	return out
}

func FuzzEmitterLess(f *testing.F) {
	for _, seed := range [][2]string{{"9B", "911"}, {"0112", "01B7"}, {"x5c", "x509"}, {"a", "B"}, {"a.b", "a-1"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if a == b || !utf8.ValidString(a) || !utf8.ValidString(b) || !yamlSafe(a) || !yamlSafe(b) || a == mergeKey || b == mergeKey {
			return
		}
		if emitterLess(a, b) != libraryWritesFirst(t, yaml.Marshal, a, b) {
			t.Fatalf("emitterLess(%q, %q) = %v, sigs.k8s.io/yaml disagrees", a, b, emitterLess(a, b))
		}
	})
}

// consistentKeys reports whether the emitter orders the keys of every map
// in v consistently (no three keys in a cycle), so that its output does not
// depend on map iteration.
func consistentKeys(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k, e := range x {
			if !consistentKeys(e) {
				return false
			}
			keys = append(keys, k)
		}
		return keyCycle(keys) == nil
	case []any:
		for _, e := range x {
			if !consistentKeys(e) {
				return false
			}
		}
	}
	return true
}

// keyCycle returns three keys the emitter orders in a cycle, or nil.
func keyCycle(keys []string) []string {
	var cycle []string
	eachCycle(keys, func(a, b, c string) bool {
		cycle = []string{a, b, c}
		return false
	})
	return cycle
}

// eachCycle calls fn for every a < b < c < a of keys in the emitter's
// order, until fn returns false.
func eachCycle(keys []string, fn func(a, b, c string) bool) {
	for _, a := range keys {
		for _, b := range keys {
			if !emitterLess(a, b) {
				continue
			}
			for _, c := range keys {
				if emitterLess(b, c) && emitterLess(c, a) && !fn(a, b, c) {
					return
				}
			}
		}
	}
}
