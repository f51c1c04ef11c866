package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/realtrees"
)

// referenceData is the reference generator's output
// (realtrees.ReferenceDataEnv); the test skips without it.
func referenceData(t *testing.T) string {
	t.Helper()
	return realtrees.ReferenceData(t)
}

// TestReserialiseReferenceManifests proves that Parse followed by Marshal
// reproduces, byte for byte, every CRD manifest the reference produced: the
// property every golden comparison in this repository rests on.
func TestReserialiseReferenceManifests(t *testing.T) {
	root := referenceData(t)
	var n int
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".yaml") || strings.Contains(p, "/tests/") ||
			strings.Contains(p, "payload-featuregates") || strings.HasSuffix(p, "featuregated-crd-manifests.yaml") {
			return nil
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		out, err := Marshal(m)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if string(out) != string(data) {
			t.Errorf("%s: re-serialised bytes differ", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Fatalf("only %d reference manifests found", n)
	}
}

func TestMarshalTypedAndMapAgree(t *testing.T) {
	type names struct {
		Kind       string   `json:"kind"`
		ShortNames []string `json:"shortNames,omitempty"`
	}
	typed, err := Marshal(struct {
		Names names  `json:"names"`
		Scope string `json:"scope"`
	}{Names: names{Kind: "Widget"}, Scope: "Cluster"})
	if err != nil {
		t.Fatal(err)
	}
	want := "names:\n  kind: Widget\nscope: Cluster\n"
	if string(typed) != want {
		t.Fatalf("Marshal = %q, want %q", typed, want)
	}
}

func TestParseEmpty(t *testing.T) {
	m, err := Parse(nil)
	if err != nil || m != nil {
		t.Fatalf("Parse(nil) = %v, %v", m, err)
	}
	if _, err := Parse([]byte("a: [")); err == nil {
		t.Fatal("invalid YAML accepted")
	}
}

// CountDocuments skips splitting data into lines when no separator can
// be in it: the count is the one the line by line scan gives.
func TestCountDocumentsWithoutSeparators(t *testing.T) {
	for _, in := range []string{
		"", "\n", "  \n\t\n", "# comment\n  # indented\n", "...\n", "a: 1", "a: 1\n", "\n\n  b: 2\n...\n",
		"a: |\n  -- not a separator\n", "# c\r\nx: y\r\n", "a: 1\n---\nb: 2\n", "--- \n", "a: '---'\n",
	} {
		if got, want := CountDocuments([]byte(in)), countByLine([]byte(in)); got != want {
			t.Errorf("CountDocuments(%q) = %d, want %d", in, got, want)
		}
	}
}
