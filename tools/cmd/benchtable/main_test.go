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
	if mode == "extra-arg" && !slices.Contains(args, "--strict-markers=false") {
		return 5
	}
	for _, flag := range []string{"--cpuprofile", "--memprofile"} {
		if j := slices.Index(args, flag); j >= 0 {
			if mode == "old" {
				return 2 // a codegen without the profile flags
			}
			if err := os.WriteFile(args[j+1], []byte("profile"), 0o644); err != nil {
				return 4
			}
		}
	}
	// An update writes a generated manifest, as codegen does.
	if b := slices.Index(args, "--base-dir"); b >= 0 && !verify {
		dir := filepath.Join(args[b+1], "apps", "v1", "zz_generated.crd-manifests")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return 4
		}
		if err := os.WriteFile(filepath.Join(dir, "widgets.crd.yaml"), []byte("kind: CustomResourceDefinition\n"), 0o644); err != nil {
			return 4
		}
	}
	s := map[string]any{
		"stages": []map[string]any{
			{"name": "discovery", "seconds": 0.01},
			{"name": "load", "seconds": 1.5},
			{"name": "schemapatch", "seconds": 0.25},
			{"name": "brand-new-stage", "seconds": 0.5},
			{"name": "crd-validation", "seconds": 0.25},
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
	return runFakeOn(t, tree(t), mode, extra...)
}

func runFakeOn(t *testing.T, dir, mode string, extra ...string) string {
	t.Helper()
	t.Setenv("BENCHTABLE_FAKE", mode)
	var out, errOut bytes.Buffer
	args := append([]string{"--codegen", os.Args[0], "--tree", dir}, extra...)
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	return out.String()
}

func TestReportAllRuns(t *testing.T) {
	out := runFake(t, "ok")
	for _, want := range []string{
		"| update (cold) | 0 |", "| update (warm) | 0 |", "| verify | 0 |", "| update apps.example.io/v1 | 0 |",
		"brand-new-stage s", "| 1.50 |", "| 0.38 |", "| 42 |", "7 / – / –", "– / –", "| 42 | – / – | – |",
		"| update wall time | update (cold) | ≤ 2 s |", "| verify peak RSS | verify | ≤ 300 MB |",
		"| single group-version wall time | update apps.example.io/v1 | ≤ 0.5 s |",
		"| CRD validation stage | verify | ≤ 0.5 s | 0.25 s | PASS |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Stages no run reports take no column.
	for _, absent := range []string{"strict-markers s", "empty-partial-schemas s", "wall s, every repetition"} {
		if strings.Contains(out, absent) {
			t.Errorf("report has column %q:\n%s", absent, out)
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

// TestRepetitions: with --runs 2 and extra arguments every run happens
// twice with those arguments, and the cold update of the second repetition
// starts from the tree as given: what the first one wrote is removed.
func TestRepetitions(t *testing.T) {
	dir := tree(t)
	out := runFakeOn(t, dir, "extra-arg", "--runs", "2", "--arg=--strict-markers=false")
	if !strings.Contains(out, "the fastest of 2 repetitions") || !strings.Contains(out, "with `--strict-markers=false`") ||
		!strings.Contains(out, "wall s, every repetition") {
		t.Errorf("report does not describe the repetitions:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| update (cold) |") && strings.Count(line, " / ") < 1+4 {
			t.Errorf("cold update row does not list two repetitions: %s", line)
		}
	}
	if strings.Contains(out, "MISS") || strings.Contains(out, "rewrote") {
		t.Errorf("runs with the extra argument failed or rewrote the tree:\n%s", out)
	}
	if !generatedOutputExists(dir) {
		t.Errorf("the last repetition's output was removed")
	}
	if strings.Contains(out, "is not cold") {
		t.Errorf("the second cold update was reported as not cold:\n%s", out)
	}
	out = runFakeOn(t, dir, "ok")
	if !strings.Contains(out, "is not cold") {
		t.Errorf("a tree with generated manifests was not reported:\n%s", out)
	}
}

func TestRestore(t *testing.T) {
	dir := tree(t)
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("apps/v1/types.go", "package v1\n")
	before, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	write("apps/v1/zz_generated.crd-manifests/a.crd.yaml", "a")
	write("apps/v1/zz_generated.crd-manifests/deep/b.yaml", "b")
	write("new/file", "c")
	write("apps/v1/types.go", "package v1 // rewritten\n")
	rewritten, err := restore(dir, before)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rewritten, []string{filepath.FromSlash("apps/v1/types.go")}) {
		t.Errorf("rewritten = %q, want apps/v1/types.go", rewritten)
	}
	after, err := snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		var paths []string
		for p := range after {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		t.Errorf("after restore the tree holds %q; want the %d paths it held before", paths, len(before))
	}
}

func TestProfiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "profiles")
	out := runFake(t, "ok", "--profile", dir)
	for _, name := range []string{"verify.cpu.pprof", "verify.mem.pprof", "single.cpu.pprof", "single.mem.pprof"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("profile not written: %v", err)
		}
		if !strings.Contains(out, filepath.Join(dir, name)) {
			t.Errorf("report does not name %s:\n%s", name, out)
		}
	}
	if !strings.Contains(out, "go tool pprof -top") {
		t.Errorf("report does not say how to read the profiles:\n%s", out)
	}
	out = runFake(t, "old", "--profile", t.TempDir())
	if !strings.Contains(out, "Profiling verify failed (exit status 2)") || strings.Contains(out, "MISS") {
		t.Errorf("a codegen without profile flags: profiling not reported as failed, or measured runs affected:\n%s", out)
	}
}

func TestBusy(t *testing.T) {
	for load, want := range map[string]bool{"1e9": true, "0.00": false, "": false, "n/a": false} {
		if got := busy(load); got != want {
			t.Errorf("busy(%q) = %v, want %v", load, got, want)
		}
	}
}
