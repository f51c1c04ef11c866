package refera

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, e := range All() {
		if got, err := Parse(string(e)); err != nil || got != e {
			t.Errorf("Parse(%q) = %q, %v", e, got, err)
		}
	}
	_, err := Parse("2026-04")
	if err == nil || err.Error() != `unknown era "2026-04" of the reference generator; known eras are 2025-09, 2026-01, 2026-02, 2026-03` {
		t.Errorf("Parse(\"2026-04\") = %v", err)
	}
}

func TestVersioned(t *testing.T) {
	var got []string
	for _, e := range All() {
		if e.Versioned() {
			got = append(got, string(e))
		}
	}
	if strings.Join(got, " ") != "2026-02 2026-03" {
		t.Errorf("versioned eras %q", got)
	}
}
