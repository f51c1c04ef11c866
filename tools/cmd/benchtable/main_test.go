package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test binary doubles as a fake codegen: with BENCHTABLE_FAKE set it
// writes a stats file and exits instead of running tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("BENCHTABLE_FAKE"); mode != "" {
		os.Exit(fakeCodegen(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeCodegen(mode string, args []string) int {
	i := slices.Index(args, "--stats")
	if i < 0 || i+1 >= len(args) {
		return 2
	}
	verify := slices.Contains(args, "--verify")
	single := slices.Contains(args, "--api-group-versions")
	s := map[string]any{
		"stages": []map[string]any{
			{"name": "discovery", "seconds": 0.01},
			{"name": "load", "seconds": 1.5},
			{"name": "schemapatch", "seconds": 0.25},
			{"name": "brand-new-stage", "seconds": 0.5},
		},
		"packagesLoaded": 42,
		"filesWritten":   7,
		"totalSeconds":   2.0,
	}
	if verify {
		s["stages"] = append(s["stages"].([]map[string]any), map[string]any{"name": "verify", "seconds": 0.375})
	}
	if mode == "partial" {
		s = map[string]any{"tuples": 70}
	}
	data, _ := json.Marshal(s)
	if err := os.WriteFile(args[i+1], data, 0o644); err != nil {
		return 4
	}
	if mode == "fail-verify" && verify {
		return 1
	}
	if single && slices.Contains(args, "nope/v1") {
		return 3
	}
	return 0
}

func tree(t *testing.T) string {
	dir := t.TempDir()
	gv := filepath.Join(dir, "apps", "v1")
	if err := os.MkdirAll(gv, 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "// +groupName=apps.example.io\n// +openshift:featuregated-schema-gen=true\npackage v1\n"
	if err := os.WriteFile(filepath.Join(gv, "doc.go"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runFake(t *testing.T, mode string, extra ...string) string {
	t.Helper()
	t.Setenv("BENCHTABLE_FAKE", mode)
	var out, errOut bytes.Buffer
	args := append([]string{"--codegen", os.Args[0], "--tree", tree(t)}, extra...)
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	return out.String()
}

func TestReportAllRuns(t *testing.T) {
	out := runFake(t, "ok")
	for _, want := range []string{
		"| update (cold) | 0 |", "| update (warm) | 0 |", "| verify | 0 |", "| update apps.example.io/v1 | 0 |",
		"brand-new-stage s", "| 1.50 |", "| 0.38 |", "| 42 |", "7 / – / –", "– / –", "| 42 | – / – |",
		"| update wall time | update (cold) | ≤ 10 s |", "| single group-version wall time | update apps.example.io/v1 | ≤ 2 s |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "MISS") {
		t.Errorf("a fake run that takes no time missed a target:\n%s", out)
	}
	// Every row has as many cells as the header.
	var widths []int
	runs, _, _ := strings.Cut(out, "\n\n| target |")
	for _, line := range strings.Split(runs, "\n") {
		if strings.HasPrefix(line, "| ") {
			widths = append(widths, strings.Count(line, " | "))
		}
	}
	if len(widths) != 6 || slices.Min(widths) != slices.Max(widths) {
		t.Errorf("ragged table (cells per row %v):\n%s", widths, out)
	}
}

func TestReportFailuresAndMissingKeys(t *testing.T) {
	out := runFake(t, "fail-verify")
	if !strings.Contains(out, "| verify | 1 |") || !strings.Contains(out, "MISS (run failed)") ||
		!strings.Contains(out, "verify: exit status 1") {
		t.Errorf("failed verify not reported:\n%s", out)
	}
	out = runFake(t, "partial", "--group-version", "nope/v1")
	if !strings.Contains(out, "| update nope/v1 | 3 |") || !strings.Contains(out, "– / 70") {
		t.Errorf("partial stats or failed run not reported:\n%s", out)
	}
}

func TestMissingBinary(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--codegen", filepath.Join(t.TempDir(), "absent"), "--tree", tree(t)}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d; benchtable reports, it does not fail", code)
	}
	if !strings.Contains(out.String(), "| update (cold) | error |") {
		t.Errorf("missing binary not reported:\n%s", out.String())
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"--tree", t.TempDir()}, &out, &errOut); code != 2 {
		t.Errorf("exit %d without --codegen, want 2", code)
	}
	if code := run([]string{"--codegen", "x", "--tree", t.TempDir()}, &out, &errOut); code != 2 {
		t.Errorf("exit %d for a tree without group-versions, want 2", code)
	}
}
