package payload

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gatedcrd/gatedcrd/features/featuregate"
)

// TestMemoParsesOnlyChangedInputs reads a payload directory through a
// Memo after each change of one of its inputs: every change parses again
// and shows in the result; reading an unchanged directory shares the kept
// result.
func TestMemoParsesOnlyChangedInputs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tp.yaml")
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("tp.yaml", manifestYAML())
	m := &Memo{}
	read := func(era Era) *Directory {
		t.Helper()
		d, err := m.ReadDirEra(dir, era)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReadDirEra(dir, era)
		if err != nil {
			t.Fatal(err)
		}
		if !sameDirectory(d, want) {
			t.Fatalf("memo read %+v, ReadDirEra %+v", d, want)
		}
		return d
	}
	first := read("")
	if again := read(""); again != first || m.Reused != 1 {
		t.Fatalf("an unchanged directory was parsed again (reused %d)", m.Reused)
	}
	steps := []struct {
		name   string
		change func()
		era    Era
	}{
		// Same size: only the bytes tell.
		{"a gate renamed", func() { write("tp.yaml", manifestYAML("name: B", "name: C")) }, ""},
		{"another era asked for", func() {}, Era202602},
		{"a file added", func() {
			write("dp.yaml", manifestYAML("TechPreviewNoUpgrade", "DevPreviewNoUpgrade"))
		}, Era202602},
		{"a skipped entry added", func() { write("README.md", "x") }, Era202602},
	}
	parsed, before := m.Parsed, first
	for _, s := range steps {
		s.change()
		after := read(s.era)
		if after == before || m.Parsed != parsed+1 {
			t.Errorf("%s: not parsed again (parsed %d, was %d)", s.name, m.Parsed, parsed)
		}
		if again := read(s.era); again != after {
			t.Errorf("%s: the read after it was not kept", s.name)
		}
		parsed, before = m.Parsed, after
	}
	if d := read(Era202602); !slices.Contains(d.Gates(), featuregate.FeatureGateName("C")) || len(d.Skipped) != 1 {
		t.Errorf("the last read does not show the changes: %+v", d)
	}
	os.Remove(file)
	if err := os.WriteFile(file, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := m.ReadDirEra(dir, Era202602); err == nil || !strings.Contains(err.Error(), "tp.yaml") {
		t.Errorf("a broken file read as %v", err)
	}
}

// sameDirectory compares what two reads found.
func sameDirectory(a, b *Directory) bool {
	return a.Path == b.Path && a.Era == b.Era && slices.Equal(a.Skipped, b.Skipped) &&
		slices.EqualFunc(a.Manifests, b.Manifests, func(x, y Manifest) bool {
			return x.FileName == y.FileName && x.ClusterProfile == y.ClusterProfile && x.FeatureSet == y.FeatureSet &&
				slices.Equal(x.Versions, y.Versions) && slices.Equal(x.Enabled, y.Enabled) &&
				slices.Equal(x.Disabled, y.Disabled) && x.PayloadVersion == y.PayloadVersion
		})
}

func TestNilMemoReads(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tp.yaml"), []byte(manifestYAML()), 0o644); err != nil {
		t.Fatal(err)
	}
	var m *Memo
	if d, err := m.ReadDirEra(dir, ""); err != nil || len(d.Manifests) != 1 {
		t.Fatalf("got %+v, %v", d, err)
	}
}
