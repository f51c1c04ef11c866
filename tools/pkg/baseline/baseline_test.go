package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestEntriesRoundTripAndAccept(t *testing.T) {
	entries := Entries([]Finding{
		{File: "b/types.go", Marker: "+kubebuilder:Required", Message: "m1"},
		{File: "a/types.go", Marker: "+x", Message: "m2"},
		{File: "b/types.go", Marker: "+kubebuilder:Required", Message: "m1"},
	})
	want := []Entry{{File: "a/types.go", Marker: "+x", Message: "m2"}, {File: "b/types.go", Marker: "+kubebuilder:Required", Count: 2, Message: "m1"}}
	if !reflect.DeepEqual(entries, want) {
		t.Fatalf("entries = %#v, want %#v", entries, want)
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := Write(path, entries); err != nil {
		t.Fatal(err)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// Two occurrences accepted, a third is not: the baseline holds counts.
	for i, want := range []bool{true, true, false} {
		if got := b.Accept("b/types.go", "+kubebuilder:Required"); got != want {
			t.Errorf("occurrence %d: Accept = %v, want %v", i+1, got, want)
		}
	}
	if b.Accept("b/types.go", "+x") {
		t.Error("a marker accepted in another file")
	}
	stale := b.Stale()
	if len(stale) != 1 || stale[0].File != "a/types.go" || stale[0].Count != 1 {
		t.Errorf("stale = %#v, want the a/types.go entry", stale)
	}
}

func TestReadMissingAndEmpty(t *testing.T) {
	dir := t.TempDir()
	if b, err := Read(filepath.Join(dir, FileName)); b != nil || err != nil {
		t.Fatalf("missing file: %v, %v", b, err)
	}
	if err := Write(filepath.Join(dir, FileName), nil); err != nil {
		t.Fatal(err)
	}
	b, err := Read(filepath.Join(dir, FileName))
	if err != nil || b == nil || len(b.Stale()) != 0 {
		t.Fatalf("empty baseline: %v, %v", b, err)
	}
	// A nil baseline accepts nothing.
	var none *Baseline
	if none.Accept("f", "m") || none.Stale() != nil {
		t.Error("nil baseline accepted something")
	}
}

func TestReadErrors(t *testing.T) {
	cases := map[string]string{
		"findings:\n- file: a.go\n  marker: +x\n  line: 3\n":    ":4: findings[0].line: unknown key; findings[0] accepts count, file, marker, message",
		"findings:\n- file: a.go\n":                             ":2: findings[0]: needs file and marker",
		"findings:\n- {file: a.go, marker: +x, count: -1}\n":    ":2: findings[0]: needs file and marker, and a count that is not negative",
		"findings:\n- {file: a.go, marker: +x, count: two}\n":   `:2: findings[0].count: must be a whole number, not the string "two"`,
		"findings:\n- file: a.go\n  file: b.go\n  marker: +x\n": ":3: findings[0].file: is given twice (first on line 2)",
		"finding: []\n":            ":1: finding: unknown key; known keys are findings",
		"findings: {file: a.go}\n": ":1: findings: must be a list of entries with file and marker, not a mapping",
		"findings: [\n":            ":1: invalid YAML: ",
	}
	for content, want := range cases {
		path := filepath.Join(t.TempDir(), FileName)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), FileName+want) {
			t.Errorf("%q: error %v, want one naming the file and line: %s%s", content, err, FileName, want)
		}
	}
}
