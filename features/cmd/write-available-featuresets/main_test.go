package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the module root as seen from this package's directory, which
// is the working directory of its tests.
const repoRoot = "../../.."

// TestCommittedOutputsAreUpToDate fails when a gate changed without
// regenerating payload-manifests/featuregates/ and features.md.
func TestCommittedOutputsAreUpToDate(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{
		"--verify",
		"--payload-dir", filepath.Join(repoRoot, "payload-manifests", "featuregates"),
		"--features-md", filepath.Join(repoRoot, "features.md"),
	}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d; regenerate with `go run ./features/cmd/write-available-featuresets` from the repository root:\n%s",
			code, stderr.String())
	}
}

func TestWriteThenVerify(t *testing.T) {
	dir := t.TempDir()
	payloadDir := filepath.Join(dir, "featuregates")
	md := filepath.Join(dir, "features.md")
	args := []string{"--payload-dir", payloadDir, "--features-md", md, "--payload-version", "4.20.0"}
	var stdout, stderr bytes.Buffer

	if code := run(append([]string{"--verify"}, args...), &stdout, &stderr); code != 1 ||
		!strings.Contains(stderr.String(), "missing: "+md) {
		t.Fatalf("verify before writing: exit %d, stderr %q; want 1 listing %s", code, stderr.String(), md)
	}
	if _, err := os.Stat(payloadDir); err == nil {
		t.Fatal("--verify created the payload directory")
	}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("write: exit %d: %s", code, stderr.String())
	}
	stderr.Reset()
	if code := run(append([]string{"--verify"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("verify after writing: exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(filepath.Join(payloadDir, "featureGate-5-10-SelfManagedHA-TechPreviewNoUpgrade.yaml"))
	if err != nil || !bytes.Contains(data, []byte(`"version": "4.20.0"`)) {
		t.Errorf("payload version not written: %v", err)
	}

	// A stale features.md and an extra manifest are both reported.
	if err := os.WriteFile(md, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := filepath.Join(payloadDir, "featureGate-Hypershift-Default.yaml")
	if err := os.WriteFile(extra, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	stderr.Reset()
	code := run(append([]string{"--verify"}, args...), &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "changed: "+md) || !strings.Contains(stderr.String(), "extra: "+extra) {
		t.Errorf("exit %d, stderr %q; want 1 listing the changed features.md and the extra manifest", code, stderr.String())
	}

	// Without --features-md nothing reads or writes features.md.
	if code := run([]string{"--payload-dir", payloadDir, "--features-md", ""}, &stdout, &stderr); code != 0 {
		t.Fatalf("write without features.md: exit %d: %s", code, stderr.String())
	}
	if data, _ := os.ReadFile(md); string(data) != "old\n" {
		t.Error("features.md was written although disabled")
	}
	if _, err := os.Stat(extra); err == nil {
		t.Error("the extra manifest survived a write")
	}
}

func TestBadFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--no-such-flag"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if code := run([]string{"stray"}, &stdout, &stderr); code != 2 {
		t.Errorf("positional argument: exit %d, want 2", code)
	}
}

// TestBaseDirAndOutputFlags checks the defaults below --base-dir, that
// -v names each file rendered on standard error, and that -q keeps
// standard error empty.
func TestBaseDirAndOutputFlags(t *testing.T) {
	base := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--base-dir", base, "-v"}, &stdout, &stderr); code != 0 {
		t.Fatalf("write: exit %d: %s", code, stderr.String())
	}
	manifest := filepath.Join(base, "payload-manifests", "featuregates", "featureGate-5-10-SelfManagedHA-TechPreviewNoUpgrade.yaml")
	for _, p := range []string{manifest, filepath.Join(base, "features.md")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("not written below --base-dir: %v", err)
		}
	}
	if want := "write-available-featuresets: rendered " + manifest + "\n"; !strings.Contains(stderr.String(), want) || stdout.Len() != 0 {
		t.Errorf("-v: stdout %q, stderr %q; want %q on standard error", stdout.String(), stderr.String(), want)
	}
	stderr.Reset()
	if code := run([]string{"--base-dir", base, "--verify", "-q"}, &stdout, &stderr); code != 0 || stderr.Len() != 0 || stdout.Len() != 0 {
		t.Errorf("--verify -q: exit %d, stdout %q, stderr %q; want 0 and nothing", code, stdout.String(), stderr.String())
	}
	if code := run([]string{"--base-dir", base, "--verify"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "are up to date") {
		t.Errorf("--verify: exit %d, stderr %q; want 0 and the progress line", code, stderr.String())
	}
}
