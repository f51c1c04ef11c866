package suitefile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDiscover(t *testing.T) {
	base := t.TempDir()
	for _, path := range []string{
		"g/v1/tests/widgets.g/AAA_ungated.yaml",
		"g/v1/tests/widgets.g/-Fancy.yaml",
		"g/v1/tests/gadgets.g/Fancy+Later.yaml",
		"g/v1/tests/gadgets.g/Fancy.testsuite.yaml",
		"g/v2/tests/widgets.g/notes.txt",
		"g/v2/tests/widgets.g/old.yml",
		"g/v2/tests/stray.yaml",
		"g/v2/tests/widgets.g/nested/deep.yaml",
		"g/v2/widgets.testsuite.yaml",
		"g/testdata/v1/tests/widgets.g/fixture.yaml",
		"g/.hidden/tests/widgets.g/x.yaml",
		"g/_skip/tests/widgets.g/x.yaml",
		"vendor/x/tests/widgets.g/x.yaml",
	} {
		full := filepath.Join(base, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Discover(base)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = filepath.ToSlash(strings.TrimPrefix(got[i], base+string(filepath.Separator)))
	}
	want := []string{
		"g/v1/tests/gadgets.g/Fancy+Later.yaml",
		"g/v1/tests/gadgets.g/Fancy.testsuite.yaml",
		"g/v1/tests/widgets.g/-Fancy.yaml",
		"g/v1/tests/widgets.g/AAA_ungated.yaml",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Discover found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The base directory itself may be a testdata directory.
	got, err = Discover(filepath.Join(base, "g", "testdata"))
	if err != nil || len(got) != 1 {
		t.Errorf("Discover(testdata) = %q, %v; want the fixture", got, err)
	}
	if _, err := Discover(filepath.Join(base, "missing")); err == nil {
		t.Errorf("Discover of a missing directory succeeded")
	}
	if d := VersionDir(filepath.Join("g", "v1", "tests", "widgets.g", "x.yaml")); d != filepath.Join("g", "v1") {
		t.Errorf("VersionDir = %q", d)
	}
}
