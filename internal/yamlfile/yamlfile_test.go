package yamlfile

import (
	"errors"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/gatedcrd/gatedcrd/internal/diag"
)

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
	var p diag.Diagnostic
	if !errors.As(err, &p) || p.Line != 4 || ps.Len() != 2 {
		t.Errorf("errors.As: %+v", p)
	}
	if ds := diag.FromError(err); len(ds) != 2 || ds[1].Line != 5 || ds[1].Subject != "a" {
		t.Errorf("Diagnostics: %+v", ds)
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
