package manifest

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// sameAsDetour checks that Marshal gives exactly what sigs.k8s.io/yaml.Marshal
// gives for m (bytes, or an error for both), and that m is left alone.
func sameAsDetour(t *testing.T, name string, m map[string]any) {
	t.Helper()
	before, beforeErr := yaml.Marshal(m)
	got, err := Marshal(m)
	want, wantErr := yaml.Marshal(m)
	if unwritableKey(m, "") != nil && wantErr == nil {
		// The library writes a merge key, which does not read back.
		if err == nil || !strings.Contains(err.Error(), `key "<<"`) {
			t.Fatalf("%s: a key \"<<\" gave %v, want an error", name, err)
		}
		return
	}
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, sigs.k8s.io/yaml: %v", name, err, wantErr)
	}
	if string(got) != string(want) {
		t.Fatalf("%s: Marshal =\n%s\nsigs.k8s.io/yaml.Marshal =\n%s", name, got, want)
	}
	if string(before) != string(want) || (beforeErr != nil) != (wantErr != nil) {
		t.Fatalf("%s: Marshal modified its input", name)
	}
}

func TestMarshalMatchesDetour(t *testing.T) {
	deep := map[string]any{}
	for i, cur := 0, deep; i < maxDepth+5; i++ {
		next := map[string]any{}
		cur["x"] = next
		cur = next
	}
	numbers := []float64{0, math.Copysign(0, -1), 1, -1, 1.5, 0.1, 1e-7, 1e-6, 123456789, 1 << 53, 1<<53 + 2, 1 << 63,
		1 << 64, 1e20, 1e21, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 3.0000000000000004}
	strs := []string{"", "3", "1.5", "true", "yes", "no", "on", "null", "~", "0x10", "1e3", "2006-01-02", "a\tb", "a\nb\n",
		"\x7f", "\xff", "a\xffb", "\u2028", "\u2029", "\ufeff", "\ufffd", "\u0085", "\ufffe", "<a> & b", `quo"te`, `back\slash`,
		"- a", ": x", "#c", " lead", "trail ", "\x01\x02", "é", "日本", "😀", strings.Repeat("long words ", 30), "{a: b}", "*x", "&y", "!t"}
	cases := map[string]map[string]any{
		"empty":        {},
		"nil map":      nil,
		"deep":         deep,
		"typed nils":   {"m": map[string]any(nil), "s": []any(nil), "n": nil, "in": []any{map[string]any(nil), []any(nil)}},
		"empties":      {"m": map[string]any{}, "s": []any{}},
		"nan":          {"x": math.NaN()},
		"inf":          {"x": []any{math.Inf(-1)}},
		"typed values": {"s": []string{"a"}, "i": 3, "m": map[string]string{"a": "b"}},
		"integers":     {"a": int64(5), "b": int64(math.MinInt64), "c": 7, "d": int64(math.MaxInt64), "l": []any{int64(1), 2, 2.5}},
		"bools":        {"t": true, "f": false, "list": []any{true, false, nil}},
		"keys":         {"3": "a", "true": "b", "": "c", "a\xffb": "d", "\x7f": "e", "b": "f", "B": "g", "a10": 1.0, "a9": 2.0},
		"long keys": {strings.Repeat("k", 1022): 1.0, "l": []any{map[string]any{strings.Repeat("é", 1022): "v"}},
			"m": map[string]any{strings.Repeat("<", 170): 2.5}},
		"overlong keys": {strings.Repeat("k", 1023): 1.0, "l": []any{map[string]any{strings.Repeat("é", 1023): "v"}},
			"m": map[string]any{strings.Repeat("<", 171): 2.5}},
	}
	nums := map[string]any{}
	var numList []any
	for i, f := range numbers {
		nums[string(rune('a'+i))] = f
		numList = append(numList, f, -f)
	}
	nums["list"] = numList
	cases["numbers"] = nums
	for _, s := range strs {
		cases["string "+s] = map[string]any{"v": s, "l": []any{s}, s: "k"}
	}
	for name, m := range cases {
		sameAsDetour(t, name, m)
	}
}

// TestMarshalSharesUnchangedValues checks that only the containers holding
// numbers are copied, and that the copies leave the input intact.
func TestMarshalSharesUnchangedValues(t *testing.T) {
	plain := map[string]any{"a": "b", "l": []any{"x"}}
	numbered := map[string]any{"n": 3.0, "l": []any{"x", 1.5}}
	in := map[string]any{"plain": plain, "numbered": numbered}
	out, changed, ok := jsonLike(in, 0)
	if !ok || !changed {
		t.Fatalf("jsonLike: changed %v, ok %v", changed, ok)
	}
	got := out.(map[string]any)
	if p := got["plain"].(map[string]any); len(p) != 2 || p["l"].([]any)[0] != "x" {
		t.Fatalf("plain = %v", p)
	}
	p := got["plain"].(map[string]any)
	p["probe"] = true
	if _, shared := plain["probe"]; !shared {
		t.Error("a map without numbers was copied")
	}
	delete(plain, "probe")
	if numbered["n"] != 3.0 || got["numbered"].(map[string]any)["n"] != 3 {
		t.Errorf("numbers: input %v, output %v", numbered["n"], got["numbered"].(map[string]any)["n"])
	}
	if numbered["l"].([]any)[1] != 1.5 {
		t.Error("the input slice was modified")
	}
}

// FuzzMarshal compares Marshal with sigs.k8s.io/yaml.Marshal on generic maps
// decoded from arbitrary JSON wherever that library's key order does not
// depend on the run (see keyorder.go), and checks always that Marshal and
// a Renderer give the same bytes for the same content, whatever order its
// maps were built in.
func FuzzMarshal(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"a":1,"b":[1.5,-0,1e21,"x",null,true],"c":{"d":{}}}`,
		`{"s":"\u2028\ufeff\u007f","n":123456789012345678901234567890,"e":1e-7}`,
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","properties":{"x":{"type":"integer","maximum":65535,"format":"int32"}}}}}]}}`,
		`{"9B":1,"11":{"0112":1,"01B7":2,"000000007Y":3},"911":[{"v1beta1":1,"v2":2,"v10":3}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m map[string]any
		if json.Unmarshal(data, &m) != nil {
			return
		}
		if consistentKeys(m) {
			sameAsDetour(t, "fuzz", m)
		}
		want, wantErr := Marshal(m)
		if m != nil {
			// A copy is the same content in maps Go iterates in an order of their own.
			got, err := Marshal(runtime.DeepCopyJSONValue(m).(map[string]any))
			if string(got) != string(want) || (err != nil) != (wantErr != nil) {
				t.Fatalf("Marshal of the same content built in another order =\n%s\nbefore\n%s", got, want)
			}
		}
		var r Renderer
		sameAsMarshal(t, "fuzz", r.Marshal, m)
		s := NewSubtrees()
		s.minSize = 0
		sameAsMarshal(t, "fuzz, every mapping on its own", subtreesMarshal(s), m)
		sameAsMarshal(t, "fuzz, every mapping on its own, again", subtreesMarshal(s), m)
		if m != nil {
			other := map[string]any{"other": "x"}
			for k, v := range m {
				other[k] = v
			}
			sameAsMarshal(t, "fuzz, rendered again sharing its values", r.Marshal, other)
		}
	})
}

// TestMarshalResultHasNoSpareCapacity checks that a rendered manifest
// keeps exactly its bytes: stages hold many of them at once, and
// go.yaml.in/yaml/v2.Marshal's own result can keep a quarter more spare.
func TestMarshalResultHasNoSpareCapacity(t *testing.T) {
	m := map[string]any{"description": strings.Repeat("a long description, ", 500), "list": []any{"a", 1.0, true}}
	for range 2 { // the second call reuses the first one's buffer
		got, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if cap(got) != len(got) {
			t.Errorf("Marshal returned %d bytes with capacity %d", len(got), cap(got))
		}
	}
}

// TestMarshalRejectsOverlongKeys checks that a key sigs.k8s.io/yaml.Marshal
// fails on is an error that says where the key is, whether the map takes
// the short cut or the detour (a string that is not valid UTF-8), and that
// overlongKey draws the line where the library does.
func TestMarshalRejectsOverlongKeys(t *testing.T) {
	for _, unit := range []string{"k", "é", "<", "\x01", "😀", "\xff"} {
		for n := 150; n <= 1030; n++ {
			key := strings.Repeat(unit, n)
			j, _ := json.Marshal(key)
			if d := utf8.RuneCount(j) - maxJSONKey; d < -6 || d > 6 {
				continue
			}
			m := map[string]any{"spec": map[string]any{"l": []any{map[string]any{key: 1.0}}}}
			_, libErr := yaml.Marshal(m)
			if overlongKey(key) != (libErr != nil) {
				t.Fatalf("%d × %q: overlongKey %v, sigs.k8s.io/yaml.Marshal: %v", n, unit, overlongKey(key), libErr)
			}
			for _, in := range []map[string]any{m, {"spec": m["spec"], "bad": "a\xffb"}} {
				_, err := Marshal(in)
				if (err != nil) != (libErr != nil) {
					t.Fatalf("%d × %q: Marshal: %v, sigs.k8s.io/yaml.Marshal: %v", n, unit, err, libErr)
				}
				if err != nil && !strings.Contains(err.Error(), " at spec.l[0]: ") {
					t.Fatalf("%d × %q: error does not say where the key is: %v", n, unit, err)
				}
			}
		}
	}
}

// TestMarshalRejectsMergeKey checks the other place where Marshal differs
// from sigs.k8s.io/yaml.Marshal: that library writes a key "<<" unquoted,
// so its output reads back as a YAML merge, and Marshal says where the key
// is instead.
func TestMarshalRejectsMergeKey(t *testing.T) {
	cases := []struct {
		m    map[string]any
		path string
	}{
		{map[string]any{"<<": map[string]any{"type": "string"}, "description": "x"}, "the top level"},
		{map[string]any{"spec": map[string]any{"versions": []any{"v", map[string]any{"<<": 1.0}}}}, "spec.versions[1]"},
		{map[string]any{"a": map[string]any{"<<": "x"}, "b": map[string]any{"<<": "y"}}, "a"},
		{map[string]any{"p": map[string]any{"<<": "\xff"}}, "p"}, // a value the short cut leaves to the detour
	}
	for _, c := range cases {
		want, err := yaml.Marshal(c.m)
		if err == nil {
			var back map[string]any
			if yaml.Unmarshal(want, &back) == nil && reflect.DeepEqual(back, c.m) {
				t.Errorf("sigs.k8s.io/yaml.Marshal now writes %v so that it reads back: drop the exception", c.m)
			}
		}
		_, err = Marshal(c.m)
		if err == nil || !strings.Contains(err.Error(), `key "<<" at `+c.path+":") {
			t.Errorf("Marshal(%v) = %v, want an error at %s", c.m, err, c.path)
		}
		var r Renderer
		if _, rerr := r.Marshal(c.m); rerr == nil || rerr.Error() != err.Error() {
			t.Errorf("Renderer.Marshal(%v) = %v, want %v", c.m, rerr, err)
		}
	}
}
