package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gatedcrd/gatedcrd/internal/clicontract"
	"github.com/gatedcrd/gatedcrd/tools/internal/testtree"
)

// The contract tests (docs/cli.md) build the three commands and run them
// as a user does: every --help, and the same kinds of failure in each.

// commands are the binaries under test, built once per test process.
var commands struct {
	once                         sync.Once
	err                          error
	dir                          string
	codegen, apitest, featureset string
}

// TestMain removes the binaries the contract tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	if commands.dir != "" {
		os.RemoveAll(commands.dir)
	}
	os.Exit(code)
}

// buildCommands builds codegen, apitest and write-available-featuresets
// from this checkout. apitest links an API server: its first build takes
// minutes, later ones come from the build cache.
func buildCommands(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds apitest, which links an API server")
	}
	commands.once.Do(func() {
		dir, err := os.MkdirTemp("", "cli-contract")
		if err != nil {
			commands.err = err
			return
		}
		commands.dir = dir
		commands.codegen = filepath.Join(dir, "codegen")
		commands.apitest = filepath.Join(dir, "apitest")
		commands.featureset = filepath.Join(dir, "write-available-featuresets")
		for _, b := range []struct{ moduleDir, out, pkg string }{
			{"../..", commands.codegen, "./cmd/codegen"},
			{"../../../apitest", commands.apitest, "./cmd/apitest"},
			{"../../..", commands.featureset, "./features/cmd/write-available-featuresets"},
		} {
			cmd := exec.Command("go", "build", "-o", b.out, b.pkg)
			cmd.Dir = b.moduleDir
			if out, err := cmd.CombinedOutput(); err != nil {
				commands.err = errors.New(string(out))
				return
			}
		}
	})
	if commands.err != nil {
		t.Fatalf("building the commands: %v", commands.err)
	}
}

// result is what one run of a command gave.
type result struct {
	code           int
	stdout, stderr string
}

func runBinary(t *testing.T, bin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return result{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// sharedFlag is a flag of the contract and what its --help line must say
// wherever it appears, so that it means the same in every command.
type sharedFlag struct {
	line *regexp.Regexp
	in   func(command string) bool
}

func everywhere(string) bool { return true }

func only(names ...string) func(string) bool {
	return func(command string) bool {
		root, _, _ := strings.Cut(command, " ")
		for _, n := range names {
			if root == n {
				return true
			}
		}
		return false
	}
}

var sharedFlags = []sharedFlag{
	{regexp.MustCompile(`(?m)^\s+-h, --help\s+help for `), everywhere},
	{regexp.MustCompile(`(?m)^\s+-v, --verbose level\[=1\]\s+verbosity level: -v alone is 1, -v N or -v=N a level; `), everywhere},
	{regexp.MustCompile(`(?m)^\s+-q, --quiet\s+print only errors and results: no progress lines or warnings on standard error$`), everywhere},
	{regexp.MustCompile(`(?m)^\s+--base-dir string\s+\S`), everywhere},
	{regexp.MustCompile(`(?m)^\s+--manifest-merge:payload-manifest-path string\s+.*relative to the working directory.*--payload-dir is another name for it`), everywhere},
	{regexp.MustCompile(`(?m)^\s+--kube-version string\s+\S`), only("codegen", "apitest")},
	{regexp.MustCompile(`(?m)^\s+--strict\s+\S`), only("codegen", "apitest")},
	{regexp.MustCompile(`(?m)^\s+--verify\s+\S`), only("codegen", "write-available-featuresets")},
	{regexp.MustCompile(`(?m)^\s+--skip string\s+.*` + regexp.QuoteMeta(clicontract.SkipUsage)), exactly("apitest", "codegen watch")},
}

// exactly matches the commands named, sub-command path included.
func exactly(names ...string) func(string) bool {
	return func(command string) bool { return slices.Contains(names, command) }
}

// helpShape is the --help of every command: a description, the usage
// line(s) of the command ("  codegen compat [flags]"), then its flags.
func helpShape(command string) *regexp.Regexp {
	return regexp.MustCompile(`^[^\n]*\S[^\n]*\n(?s:.*)\nUsage:\n  ` + regexp.QuoteMeta(command) + `( [^\n]*)?\n(?s:.*)\nFlags:\n`)
}

// codegenCommands lists the command paths of the codegen tree, with
// cobra's own help and completion commands, which users run too.
func codegenCommands() [][]string {
	root := NewRootCommand("test", &bytes.Buffer{})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var out [][]string
	out = append(out, nil)
	for _, c := range root.Commands() {
		out = append(out, []string{c.Name()})
		for _, sub := range c.Commands() {
			out = append(out, []string{c.Name(), sub.Name()})
		}
	}
	return out
}

func TestHelpContract(t *testing.T) {
	buildCommands(t)
	type target struct {
		bin  string
		path []string // sub-command path
		name string   // command path as usage prints it
	}
	var targets []target
	for _, p := range codegenCommands() {
		targets = append(targets, target{commands.codegen, p, strings.Join(append([]string{"codegen"}, p...), " ")})
	}
	targets = append(targets,
		target{commands.apitest, nil, "apitest"},
		target{commands.featureset, nil, "write-available-featuresets"})
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			for _, help := range []string{"--help", "-h"} {
				r := runBinary(t, tg.bin, append(append([]string{}, tg.path...), help)...)
				if r.code != 0 || r.stderr != "" {
					t.Fatalf("%s %s: exit %d, stderr %q; want 0 and nothing on standard error", tg.name, help, r.code, r.stderr)
				}
				if !helpShape(tg.name).MatchString(r.stdout) {
					t.Errorf("%s %s: not a description, \"Usage:\\n  %s ...\" and \"Flags:\":\n%s", tg.name, help, tg.name, r.stdout)
				}
				for _, f := range sharedFlags {
					if f.in(tg.name) && !f.line.MatchString(r.stdout) {
						t.Errorf("%s %s: no flag line matching %s:\n%s", tg.name, help, f.line, r.stdout)
					}
				}
			}
		})
	}
}

// TestExitStatusContract runs the same kind of failure through each
// command that can have it and checks the exit status and the first
// line of standard error. None of them starts an API server.
func TestExitStatusContract(t *testing.T) {
	buildCommands(t)
	badConfig := testtree.Write(t, map[string]string{".gatedcrd.yaml": "strictMarkers: true\nbogus: 1\n"})
	missing := filepath.Join(t.TempDir(), "missing")
	empty := t.TempDir()
	stale := exampleTree(t, false)
	payload := filepath.Join(stale, "payload-manifests", "featuregates")
	type run struct {
		bin  string
		args []string
	}
	for _, tc := range []struct {
		kind  string
		code  int
		first *regexp.Regexp // the first line of standard error
		runs  []run
	}{
		{"unknown flag", ExitUsage, regexp.MustCompile(`^error: unknown flag: --no-such-flag$`), []run{
			{commands.codegen, []string{"crd-manifests", "--no-such-flag"}},
			{commands.apitest, []string{"--no-such-flag"}},
			{commands.featureset, []string{"--no-such-flag"}},
		}},
		{"flag without the flag it needs", ExitUsage, regexp.MustCompile(`^error: --skip is the skip list of the API test suites; it needs --suites$`), []run{
			{commands.codegen, []string{"watch", "--base-dir", empty, "--skip", missing}},
		}},
		{"rerun-all without --suites", ExitUsage, regexp.MustCompile(`^error: --suites-rerun-all says which tests of the API test suites run; it needs --suites$`), []run{
			{commands.codegen, []string{"watch", "--base-dir", empty, "--suites-rerun-all"}},
		}},
		{"bad .gatedcrd.yaml", ExitInput, regexp.MustCompile(`^error: \S*\.gatedcrd\.yaml:2: bogus: unknown key`), []run{
			{commands.codegen, []string{"--base-dir", badConfig, "-q"}},
			{commands.apitest, []string{"--base-dir", badConfig}},
			{commands.featureset, []string{"--base-dir", badConfig, "--verify"}},
		}},
		{"missing base directory", ExitInput, regexp.MustCompile(`^error: .*` + regexp.QuoteMeta(missing)), []run{
			{commands.codegen, []string{"--base-dir", missing}},
			{commands.apitest, []string{"--base-dir", missing}},
			{commands.featureset, []string{"--base-dir", missing}},
		}},
		// write-available-featuresets writes the payload directory: a
		// missing one is stale, not bad input.
		{"missing payload directory", ExitInput, regexp.MustCompile(`^error: .*` + regexp.QuoteMeta(missing)), []run{
			{commands.codegen, []string{"--base-dir", stale, "-q", "--manifest-merge:payload-manifest-path", missing}},
			{commands.apitest, []string{"--base-dir", empty, "--payload-dir", missing}},
		}},
		{"verify finds stale files", ExitStale, regexp.MustCompile(`--verify: \d+ file\(s\) out of date; run (codegen crd-manifests|write-available-featuresets) without --verify and commit the result$`), []run{
			{commands.codegen, []string{"crd-manifests", "--base-dir", stale, "-q", "--verify"}},
			{commands.featureset, []string{"--base-dir", empty, "-q", "--verify"}},
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			for _, r := range tc.runs {
				got := runBinary(t, r.bin, r.args...)
				lines := strings.Split(strings.TrimSpace(got.stderr), "\n")
				line := lines[0]
				if tc.code == ExitStale {
					line = lines[len(lines)-1] // after the list of files
				}
				if got.code != tc.code || !tc.first.MatchString(line) {
					t.Errorf("%s %q: exit %d, standard error:\n%s\nwant %d and a line matching %s", filepath.Base(r.bin), r.args, got.code, got.stderr, tc.code, tc.first)
				}
			}
		})
	}
	t.Run("test failure", func(t *testing.T) {
		got := runBinary(t, commands.apitest, "--base-dir", empty, "--payload-dir", payload, "-q")
		if got.code != ExitStale || !strings.Contains(got.stdout, "no suite below "+empty) || !strings.HasSuffix(got.stdout, "\n0 passed, 1 failed\n") || got.stderr != "" {
			t.Errorf("apitest -q on a tree without suites: exit %d, stdout %q, stderr %q; want 1, the failure and the count on standard output only", got.code, got.stdout, got.stderr)
		}
	})
}

// TestCodegenVerbosity checks -v in codegen, where klog prints its level
// 1 lines: "-v" alone and "-v 1" (as openshift/api's scripts pass it) are
// level 1, no -v is level 0.
func TestCodegenVerbosity(t *testing.T) {
	buildCommands(t)
	dir := exampleTree(t, true)
	level1 := regexp.MustCompile(`(?m)^I\d{4} .*\] codegen: \d+ CRD\(s\)`)
	for _, tc := range []struct {
		flags []string
		shown bool
	}{{nil, false}, {[]string{"-v"}, true}, {[]string{"-v", "1"}, true}, {[]string{"--v=0"}, false}} {
		args := append([]string{"crd-manifest-merge", "--base-dir", dir, "--verify"}, tc.flags...)
		r := runBinary(t, commands.codegen, args...)
		if r.code != 0 || level1.MatchString(r.stderr) != tc.shown || r.stdout != "" {
			t.Errorf("codegen %q: exit %d, stdout %q, stderr:\n%s\nwant 0 and the level 1 line shown: %v", args, r.code, r.stdout, r.stderr, tc.shown)
		}
	}
}
