package clicontract

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestVerbositySet(t *testing.T) {
	for in, want := range map[string]Verbosity{"true": 1, "false": 0, "0": 0, "1": 1, "4": 4} {
		var v Verbosity
		if err := v.Set(in); err != nil || v != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, v, err, want)
		}
	}
	for _, in := range []string{"-1", "x", ""} {
		var v Verbosity
		if err := v.Set(in); err == nil {
			t.Errorf("Set(%q) accepted", in)
		}
	}
}

func TestNormalizeArgs(t *testing.T) {
	long := func(name string) bool { return name == "base-dir" || name == "run" }
	for _, tc := range []struct{ in, want []string }{
		{[]string{"crd-manifests", "--base-dir", "x", "-v", "1"}, []string{"crd-manifests", "--base-dir", "x", "-v=1"}},
		{[]string{"--v", "2", "-q"}, []string{"--v=2", "-q"}},
		{[]string{"--verbose", "x"}, []string{"--verbose=x"}},
		{[]string{"-v", "--base-dir", "x"}, []string{"-v", "--base-dir", "x"}},
		{[]string{"-base-dir", "x", "-run=^a$", "-kube-parallel", "2"}, []string{"--base-dir", "x", "--run=^a$", "-kube-parallel", "2"}},
		{[]string{"--", "-v", "1", "-run"}, []string{"--", "-v", "1", "-run"}},
	} {
		if got := NormalizeArgs(tc.in, long); !slices.Equal(got, tc.want) {
			t.Errorf("NormalizeArgs(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPathError(t *testing.T) {
	_, missing := os.Stat(filepath.Join(t.TempDir(), "nope"))
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, notDir := os.ReadDir(filepath.Join(file, "sub"))
	for _, tc := range []struct {
		err  error
		want int
	}{{missing, ExitInput}, {notDir, ExitInput}, {os.ErrPermission, ExitIO}} {
		e := PathError("--base-dir", tc.err)
		if e.Code != tc.want || !strings.HasPrefix(e.Msg, "error: --base-dir: ") {
			t.Errorf("PathError(%v) = %d %q, want %d and an error: line", tc.err, e.Code, e.Msg, tc.want)
		}
	}
}

// TestExecute checks the statuses and messages Execute gives for each
// kind of outcome of a command.
func TestExecute(t *testing.T) {
	var o Output
	newCmd := func(fail error) *cobra.Command {
		c := &cobra.Command{Use: "tool", Short: "a tool", Args: cobra.NoArgs, RunE: func(*cobra.Command, []string) error { return fail }}
		AddOutputFlags(c.Flags(), &o, "more detail")
		c.SetGlobalNormalizationFunc(Aliases(nil))
		c.Flags().String(BaseDirFlag, ".", "the tree")
		return c
	}
	for _, tc := range []struct {
		name       string
		fail       error
		args       []string
		code       int
		stdout     string
		stderr     string
		wantVerbos Verbosity
	}{
		{"ok, -v N", nil, []string{"-v", "2", "-base-dir", "x"}, ExitOK, "", "", 2},
		{"ok, --v alone", nil, []string{"--v"}, ExitOK, "", "", 1},
		{"help", nil, []string{"--help"}, ExitOK, "Usage:\n  tool [flags]", "", 0},
		{"unknown flag", nil, []string{"--nope"}, ExitUsage, "", "error: unknown flag: --nope\nrun 'tool --help' for usage\n", 0},
		{"input", Inputf("%s", "f.yaml:3: bad"), nil, ExitInput, "", "error: f.yaml:3: bad\n", 0},
		{"wrapped io", errors.Join(IOf("disk full")), nil, ExitIO, "", "error: disk full\n", 0},
		{"reported already", &Error{Code: ExitFailed}, nil, ExitFailed, "", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o = Output{}
			var stdout, stderr bytes.Buffer
			code := Execute(newCmd(tc.fail), tc.args, &stdout, &stderr)
			if code != tc.code || !strings.Contains(stdout.String(), tc.stdout) || stderr.String() != tc.stderr || o.Verbosity != tc.wantVerbos {
				t.Errorf("exit %d, verbosity %d, stdout %q, stderr %q; want %d, %d, stdout with %q, stderr %q",
					code, o.Verbosity, stdout.String(), stderr.String(), tc.code, tc.wantVerbos, tc.stdout, tc.stderr)
			}
		})
	}
}
