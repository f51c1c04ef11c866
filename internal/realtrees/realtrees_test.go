package realtrees

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestEachSkipsWithoutTrees(t *testing.T) {
	t.Setenv(Env, " ")
	var inner *testing.T
	t.Run("inner", func(t *testing.T) {
		inner = t
		Each(t, func(t *testing.T, dir string) { t.Errorf("called for %q", dir) })
	})
	if !inner.Skipped() {
		t.Error("not skipped")
	}
}

func TestEachRunsEveryTree(t *testing.T) {
	t.Setenv(Env, "/a/one  /b/two")
	var got []string
	Each(t, func(t *testing.T, dir string) { got = append(got, t.Name()+"="+dir) })
	want := []string{"TestEachRunsEveryTree/one=/a/one", "TestEachRunsEveryTree/two=/b/two"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestReferenceDataSkipsWithoutTheVariable(t *testing.T) {
	t.Setenv(ReferenceDataEnv, "")
	var inner *testing.T
	t.Run("inner", func(t *testing.T) {
		inner = t
		ReferenceData(t, "payload-featuregates")
		t.Error("not skipped")
	})
	if !inner.Skipped() {
		t.Error("not skipped")
	}
}

func TestReferenceDataJoins(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "example-v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ReferenceDataEnv, dir)
	if got, want := ReferenceData(t, "example-v1"), filepath.Join(dir, "example-v1"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
