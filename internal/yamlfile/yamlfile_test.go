package yamlfile

import (
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func TestProblemRendersFileLineKey(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.yaml", Line: 3, Key: "x.y", Message: "is wrong"}, "a.yaml:3: x.y: is wrong"},
		{Problem{File: "a.yaml", Line: 3, Message: "is wrong"}, "a.yaml:3: is wrong"},
		{Problem{File: "a.yaml", Message: "empty file"}, "a.yaml: empty file"},
		{Problem{Key: "x", Message: "no file to point at"}, "x: no file to point at"},
		{Problem{Line: 4, Message: "a line alone points nowhere"}, "a line alone points nowhere"},
	} {
		if got := tc.p.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestProblemsErr: problems come out in line order, each one reachable
// with errors.As.
func TestProblemsErr(t *testing.T) {
	ps := &Problems{File: "f.yaml"}
	ps.Addf(5, "a", "is given twice (first on line %d)", 1)
	ps.Addf(4, "b.c", "is given twice (first on line %d)", 3)
	err := ps.Err()
	want := "f.yaml:4: b.c: is given twice (first on line 3)\nf.yaml:5: a: is given twice (first on line 1)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want\n%s", err, want)
	}
	var p Problem
	if !errors.As(err, &p) || p.Line != 4 || ps.Len() != 2 {
		t.Errorf("errors.As: %+v", p)
	}
	if (&Problems{}).Err() != nil {
		t.Error("no problems, yet an error")
	}
}

func TestSyntaxErrorTakesTheLine(t *testing.T) {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte("a: 1\nb: [\n"), &doc)
	if err == nil {
		t.Fatal("no syntax error")
	}
	line, msg := SyntaxError(err)
	if line == 0 || strings.HasPrefix(msg, "yaml:") || strings.HasPrefix(msg, "line") || !strings.Contains(err.Error(), msg) {
		t.Errorf("line %d, message %q from %q", line, msg, err)
	}
	if line, msg := SyntaxError(errors.New("yaml: control characters are not allowed")); line != 0 || msg != "control characters are not allowed" {
		t.Errorf("without a line: %d %q", line, msg)
	}
}

func TestIsNull(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a:\nb: ~\nc: x\n"), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Content[0].Content
	if !IsNull(m[1]) || !IsNull(m[3]) || IsNull(m[5]) {
		t.Error("IsNull is wrong for a:, b: ~ or c: x")
	}
}
