package server

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

func TestOwnerPID(t *testing.T) {
	for _, tc := range []struct {
		name string
		pid  int
		ok   bool
	}{
		{name: "gatedcrd-apitest-4711-123456", pid: 4711, ok: true},
		{name: "gatedcrd-apitest-1-9", pid: 1, ok: true},
		{name: "gatedcrd-apitest-4711", ok: false},         // no random suffix
		{name: "gatedcrd-apitest--4711-1", ok: false},      // no PID
		{name: "gatedcrd-apitest-0-1", ok: false},          // not a process
		{name: "gatedcrd-apitest-x4711-1", ok: false},      // not a number
		{name: "other-4711-123456", ok: false},             // someone else's
		{name: "apiextensions-apiserver123456", ok: false}, // someone else's
	} {
		pid, ok := ownerPID(tc.name)
		if pid != tc.pid || ok != tc.ok {
			t.Errorf("ownerPID(%q) = %d, %v; want %d, %v", tc.name, pid, ok, tc.pid, tc.ok)
		}
	}
}

// deadPID returns the ID of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatalf("running a short-lived process: %v", err)
	}
	return cmd.Process.Pid
}

func TestSweepStaleTempDirs(t *testing.T) {
	root := t.TempDir()
	mkdir := func(name string) string {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(path, "etcd", "member"), 0o700); err != nil {
			t.Fatal(err)
		}
		return path
	}
	dead := mkdir(fmt.Sprintf("%s%d-1", tempDirPrefix, deadPID(t)))
	own := mkdir(fmt.Sprintf("%s%d-2", tempDirPrefix, os.Getpid()))
	parent := mkdir(fmt.Sprintf("%s%d-3", tempDirPrefix, os.Getppid()))
	foreign := mkdir("something-else-4711-4")
	file := filepath.Join(root, fmt.Sprintf("%s%d-5", tempDirPrefix, deadPID(t)))
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	removed, err := sweepStaleTempDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{dead}) {
		t.Errorf("removed %q, want only %q", removed, dead)
	}
	for _, kept := range []string{own, parent, foreign, file} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was not kept: %v", kept, err)
		}
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("%s still exists (stat: %v)", dead, err)
	}
}
