package kubeversion

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeProgram writes a server program that runs script instead.
func fakeProgram(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kube-apiserver-fake")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStartProgramFailures: a program that does not hand over its
// address is stopped, and the error says what it wrote, how it ended and
// what it logged.
func TestStartProgramFailures(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string
	}{
		{"garbage line", "echo 'not json'; echo 'a log line' >&2; cat >/dev/null\n",
			[]string{`did not report its address (it wrote "not json")`, "a log line"}},
		{"exits at once", "echo 'no etcd' >&2; exit 3\n",
			[]string{`did not report its address (it wrote "")`, "the API server program: exit status 3", "no etcd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := startProgram(t.Context(), fakeProgram(t, tc.script), Options{})
			if err == nil {
				t.Fatal("started")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
