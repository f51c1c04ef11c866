package manifest

import (
	"fmt"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

// sameParseAsLibrary checks that Parse returns exactly what
// sigs.k8s.io/yaml.Unmarshal returns for data: the map, or the error text.
func sameParseAsLibrary(t *testing.T, data string) {
	t.Helper()
	got, err := Parse([]byte(data))
	var want map[string]any
	wantErr := yaml.Unmarshal([]byte(data), &want)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, sigs.k8s.io/yaml: %v", data, err, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: Parse = %#v\nsigs.k8s.io/yaml = %#v", data, got, want)
	}
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
