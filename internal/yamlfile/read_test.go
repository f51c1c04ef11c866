package yamlfile

import (
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// readAll reads every key of a small format with the reader: a top level
// with name (a non-empty string), on (a bool), count (an int), tags (a
// list of strings) and sub, a mapping with one key, x (a string).
func readAll(r *Reader, root *yaml.Node) map[string]any {
	got := map[string]any{}
	r.Each("", root, map[string]func(Field){
		"name":  func(f Field) { got["name"], _ = r.NonEmpty("name", f.Value) },
		"on":    func(f Field) { got["on"], _ = r.Bool("on", f.Value) },
		"count": func(f Field) { got["count"], _ = r.Int("count", f.Value) },
		"tags":  func(f Field) { got["tags"], _ = r.Strings("tags", f.Value, "tags") },
		"sub": func(f Field) {
			if fields := r.Fields("sub", f.Value, "x"); fields != nil {
				if x, ok := fields["x"]; ok {
					got["sub.x"], _ = r.String("sub.x", x.Value)
				}
			}
		},
	})
	return got
}

// TestReaderReportsBadInput: every problem names the file and line, in
// line order, and the keys of the rest of the file are still read.
func TestReaderReportsBadInput(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"syntax error", "name: a\ntags: [\n", "f.yaml:2: invalid YAML: did not find expected node content"},
		{"duplicate key", "name: a\non: true\nname: b\n", "f.yaml:3: name: is given twice (first on line 1)"},
		{"duplicate nested key", "sub:\n  x: a\n  x: b\n", "f.yaml:3: sub.x: is given twice (first on line 2)"},
		{"duplicate null key", "name:\nname: b\n", "f.yaml:2: name: is given twice (first on line 1)"},
		{"unknown key", "nam: a\n", "f.yaml:1: nam: unknown key; known keys are count, name, on, sub, tags"},
		{"unknown nested key", "sub:\n  y: 1\n", "f.yaml:2: sub.y: unknown key; sub accepts x"},
		{"key not a string", "[a]: 1\n", "f.yaml:1: a key must be a string, not a list"},
		{"root not a mapping", "- a\n", "f.yaml:1: must be a mapping of keys (count, name, on, sub, tags) to values, not a list"},
		{"section not a mapping", "sub: [x]\n", "f.yaml:1: sub: must be a mapping with keys x, not a list"},
		{"empty string", "name: \" \"\n", `f.yaml:1: name: must be a non-empty string, not the string " "`},
		{"string a list", "sub:\n  x: [a]\n", "f.yaml:2: sub.x: must be a string, not a list"},
		{"bool a string", "on: maybe\n", `f.yaml:1: on: must be true or false, not the string "maybe"`},
		{"int a float", "count: 1.5\n", "f.yaml:1: count: must be a whole number, not the float 1.5"},
		{"list a mapping", "tags: {a: b}\n", "f.yaml:1: tags: must be a list of tags, not a mapping"},
		{"null entry", "tags:\n- a\n- ~\n", "f.yaml:3: tags: must be a string, not null"},
		{"every problem, in line order", "on: 2\nnam: a\non: false\n",
			"f.yaml:1: on: must be true or false, not the int 2\n" +
				"f.yaml:2: nam: unknown key; known keys are count, name, on, sub, tags\n" +
				"f.yaml:3: on: is given twice (first on line 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Reader{Problems: Problems{File: "f.yaml"}}
			if root, ok := r.Parse([]byte(tc.in)); ok && root != nil {
				readAll(r, root)
			}
			if err := r.Err(); err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestReaderReadsValues: null values are keys left out, aliases read as
// the value they name, and numbers stay as written.
func TestReaderReadsValues(t *testing.T) {
	r := &Reader{Problems: Problems{File: "f.yaml"}}
	root, ok := r.Parse([]byte("name: &n 1.30\non: yes\ncount: 3\ntags: []\nsub:\n  x: *n\n"))
	if !ok || root == nil {
		t.Fatal(r.Err())
	}
	got := readAll(r, root)
	want := map[string]any{"name": "1.30", "on": true, "count": 3, "tags": []string{}, "sub.x": "1.30"}
	if !reflect.DeepEqual(got, want) || r.Err() != nil {
		t.Errorf("got %#v (%v), want %#v", got, r.Err(), want)
	}
	r = &Reader{Problems: Problems{File: "f.yaml"}}
	root, _ = r.Parse([]byte("name:\nsub: ~\n"))
	if got := readAll(r, root); len(got) != 0 || r.Err() != nil {
		t.Errorf("null values were read: %v, %v", got, r.Err())
	}
}

// TestParseEmptyAndMoreDocuments: an empty or null document has no root
// and no problem; ParseOne rejects a second document that is not empty
// and Parse leaves it alone.
func TestParseEmptyAndMoreDocuments(t *testing.T) {
	for _, in := range []string{"", "# nothing\n", "~\n", "---\n...\n"} {
		for _, one := range []bool{false, true} {
			ps := &Problems{File: "f.yaml"}
			root, ok := ps.Parse([]byte(in))
			if one {
				root, ok = ps.ParseOne([]byte(in), "a test file")
			}
			if root != nil || !ok || ps.Err() != nil {
				t.Errorf("%q (one document %v): root %v, ok %v, %v", in, one, root, ok, ps.Err())
			}
		}
	}
	two := []byte("a: 1\n---\n# empty\n---\nb: 2\n")
	ps := &Problems{File: "f.yaml"}
	if root, ok := ps.Parse(two); root == nil || !ok || ps.Err() != nil {
		t.Errorf("Parse: root %v, ok %v, %v", root, ok, ps.Err())
	}
	root, ok := ps.ParseOne(two, "a test file")
	if want := "f.yaml:5: a test file holds one YAML document, found another"; root != nil || ok || ps.Err() == nil || ps.Err().Error() != want {
		t.Errorf("ParseOne: root %v, ok %v, %v; want %s", root, ok, ps.Err(), want)
	}
	ps = &Problems{File: "f.yaml"}
	if _, ok := ps.ParseOne([]byte("a: 1\n---\nb: [\n"), "a test file"); ok || ps.Err() == nil || !strings.HasPrefix(ps.Err().Error(), "f.yaml:3: invalid YAML: ") {
		t.Errorf("a syntax error in the second document: %v", ps.Err())
	}
}

// TestReaderPolicies: a reader's own policies see unknown and repeated
// keys instead of the default problems; a repetition that replaces wins.
func TestReaderPolicies(t *testing.T) {
	r := &Reader{Problems: Problems{File: "f.yaml"}}
	var seen []string
	r.Unknown = func(section string, f Field, known []string) {
		seen = append(seen, "unknown "+Dotted(section, f.Key.Value)+"="+f.Value.Value+" of "+strings.Join(known, ","))
	}
	r.Repeated = func(section string, key *yaml.Node, first Field) bool {
		seen = append(seen, "repeated "+Dotted(section, key.Value)+" after "+first.Value.Value)
		return true
	}
	root, _ := r.Parse([]byte("s:\n  b: 1\n  z: 2\n  b: 3\n"))
	var s map[string]Field
	r.Each("", root, map[string]func(Field){"s": func(f Field) { s = r.Fields("s", f.Value, "b", "a") }})
	if got := strings.Join(seen, "; "); got != "unknown s.z=2 of a,b; repeated s.b after 1" {
		t.Errorf("policies saw %s", got)
	}
	if s["b"].Value.Value != "3" || r.Err() != nil {
		t.Errorf("b = %v, %v", s["b"].Value.Value, r.Err())
	}
}

func TestDescribe(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("[{a: 1}, [], ~, x, 3, true, *y]"), &doc); err == nil {
		t.Fatal("an unknown alias parsed")
	}
	if err := yaml.Unmarshal([]byte("[{a: 1}, [], ~, &y x, 3, true, *y]"), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range doc.Content[0].Content {
		got = append(got, Describe(n))
	}
	if want := `a mapping|a list|null|the string "x"|the int 3|the bool true|the string "x"`; strings.Join(got, "|") != want {
		t.Errorf("got %s, want %s", strings.Join(got, "|"), want)
	}
}
