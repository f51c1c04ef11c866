package manifest

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// sameParseAsLibrary checks that Parse returns exactly what
// sigs.k8s.io/yaml.Unmarshal returns for data: the map, or the error text.
// A document Parse rejects as blown up by aliases is not given to the
// library, which would take minutes on it; only aliases can blow a
// document up that far.
func sameParseAsLibrary(t *testing.T, data string) {
	t.Helper()
	got, err := Parse([]byte(data))
	if errors.Is(err, ErrExpansion) {
		if !strings.Contains(data, "*") {
			t.Fatalf("%q: %v, but it has no alias", data, err)
		}
		return
	}
	var want map[string]any
	wantErr := yaml.Unmarshal([]byte(data), &want)
	if errorText(err) != errorText(wantErr) {
		t.Fatalf("%q: error %v, sigs.k8s.io/yaml: %v", data, err, wantErr)
	}
	if _, done, _ := parseDirect([]byte(data)); !done {
		// Parse returned the library's own result, which is not always
		// the same: of keys that read alike as strings (4 and 4.0, 1 and
		// '1') it keeps the value of whichever its map iteration meets
		// last.
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Parse = %#v\nsigs.k8s.io/yaml = %#v", data, got, want)
	}
}

// mapKeyDetail is the part of sigs.k8s.io/yaml's error for a non-string
// map key that names the key and its value: of several such keys it names
// the first one a Go map iteration meets, so two calls on one document
// may name different ones.
var mapKeyDetail = regexp.MustCompile(`(unsupported map key of type: ).*`)

// errorText is err's text without details that vary from call to call.
func errorText(err error) string {
	return mapKeyDetail.ReplaceAllString(fmt.Sprint(err), "${1}...")
}

var parseSeeds = []string{
	"", "# only a comment\n", "a: 1\n", "- a\n- b\n", "just a string", "a: [\n", "a: b\n---\nc: d\n",
	"a: 1\nb: -0\nc: 1.5\nd: 1e3\ne: 0x10\nf: 0o17\ng: 9223372036854775807\nh: 18446744073709551615\ni: 123456789012345678901234567890\n",
	"a: .inf\n", "a: [.nan]\n", "a: -.Inf\n", "1: a\n", "true: a\n", "~: a\n", "1.5: a\n", "a: {1: b}\n", "a: {[x]: b}\n",
	"a: yes\nb: no\nc: on\nd: ~\ne: null\nf: True\n", "a: 2006-01-02\nb: !!timestamp 2006-01-02\nc: !!binary aGk=\nd: !!binary /w==\n",
	"a: \"\\xff\"\nb: '\\xff'\nc: \"\\u2028\"\n", "a: &x {b: c}\nd: *x\ne:\n  <<: *x\n  f: g\n", "a: b\na: c\n",
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n          x:\n            maximum: 65535\n            type: integer\n",
	"{\"a\": [1, 2.5, \"x\", null, true, {}]}",
}

func TestParseMatchesLibrary(t *testing.T) {
	for _, s := range parseSeeds {
		sameParseAsLibrary(t, s)
	}
}

// FuzzParse compares Parse with sigs.k8s.io/yaml.Unmarshal on arbitrary
// input.
func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameParseAsLibrary(t, string(data))
	})
}

// aliasBlowUp returns a document of a few kilobytes whose aliases make it
// stand for about size bytes: one string of n bytes, referenced through
// levels of lists of five aliases each, and n plain list items so that
// go.yaml.in/yaml/v2's bound on alias-made nodes lets it through.
func aliasBlowUp(n, levels int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "items: [%s]\ns0: &s0 %s\n", strings.Repeat("x,", n), strings.Repeat("y", n))
	for l := 1; l <= levels; l++ {
		fmt.Fprintf(&b, "s%d: &s%d [%s*s%d]\n", l, l, strings.Repeat(fmt.Sprintf("*s%d, ", l-1), 4), l-1)
	}
	return b.String()
}

// TestParseRejectsAliasBlowUp: 12 KB that aliases expand to about 300 MB
// are an error, whether the fast path or the library would have parsed
// them (a non-string key or a list at the top sends the document to the
// library).
func TestParseRejectsAliasBlowUp(t *testing.T) {
	doc := aliasBlowUp(4000, 7)
	list := "- " + strings.ReplaceAll(strings.TrimSuffix(doc, "\n"), "\n", "\n- ")
	for _, data := range []string{doc, doc + "1: a\n", list} {
		_, err := Parse([]byte(data))
		if !errors.Is(err, ErrExpansion) {
			t.Fatalf("Parse of %d bytes whose aliases expand to ~300 MB: err = %v, want ErrExpansion", len(data), err)
		}
		if want := fmt.Sprintf("for %d bytes of YAML", len(data)); !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestParseKeepsModestAliases: aliases that expand a document within the
// bound parse as the library parses them.
func TestParseKeepsModestAliases(t *testing.T) {
	doc := aliasBlowUp(1000, 3) // 3 KB standing for 130 KB
	sameParseAsLibrary(t, doc)
	m, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if s3, _ := m["s3"].([]any); len(s3) != 5 {
		t.Fatalf("s3 = %v, want the five expanded aliases", m["s3"])
	}
}
