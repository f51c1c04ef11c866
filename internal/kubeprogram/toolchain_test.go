package kubeprogram

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestToolchainAskedOncePerGo: the go command is asked for its toolchain
// once per process, and again when the go binary changes.
func TestToolchainAskedOncePerGo(t *testing.T) {
	dir := t.TempDir()
	goCmd, calls := filepath.Join(dir, "go"), filepath.Join(dir, "calls")
	fakeGo := func(version string) {
		script := "#!/bin/sh\necho \"$@\" >> " + calls + "\nprintf '" + version + "\\nlinux\\namd64\\n'\n"
		if err := os.WriteFile(goCmd, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ask := func(want string) {
		t.Helper()
		got, err := Toolchain(context.Background(), goCmd)
		if err != nil {
			t.Fatal(err)
		}
		if got != want+"\nlinux\namd64" {
			t.Errorf("toolchain %q, want %s", got, want)
		}
	}
	fakeGo("go1.26.0")
	ask("go1.26.0")
	ask("go1.26.0")
	fakeGo("go1.26.10") // another size
	ask("go1.26.10")
	log, err := os.ReadFile(calls)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "env GOVERSION GOOS GOARCH"); n != 2 {
		t.Errorf("go env ran %d times, want 2:\n%s", n, log)
	}
	if _, err := Toolchain(context.Background(), filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing go command")
	}
}
