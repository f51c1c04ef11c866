package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestWatchSuitesEndToEnd runs codegen watch --suites on a copy of the
// example with the API server of the release apitest links (in the
// apitest child's process): a type edit re-runs the suites of the CRD
// files it changed, and they pass; broken expectations in one suite
// file re-run only that file's pairs, which fail naming the test, but
// for the test the --skip list names, which is reported as skipped; and
// SIGTERM ends codegen with status 0, leaving no child process and no
// temporary directory.
func TestWatchSuitesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds codegen and apitest and starts an API server")
	}
	bins := t.TempDir()
	goBuild(t, "../../cmd/codegen", filepath.Join(bins, "codegen"))
	goBuild(t, "../../../apitest/cmd/apitest", filepath.Join(bins, "apitest"))

	dir := exampleTree(t, true)
	suiteRel := "example/v1/tests/stableconfigtypes.example.openshift.io/AAA_ungated.yaml"
	const skipped = "Should reject more than 10 replicas"
	skipList := filepath.Join(t.TempDir(), "skip.yaml")
	if err := os.WriteFile(skipList, []byte("- suite: "+suiteRel+"\n  kubeVersions: [\"1.37\"]\n  tests: [\"onCreate/"+skipped+"\"]\n  reason: broken on purpose\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	cmd := exec.Command(filepath.Join(bins, "codegen"), "watch", "--suites", "--apitest", filepath.Join(bins, "apitest"),
		"--base-dir", dir, "--kube-version", "1.37", "--skip", skipList)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	log := startLogged(t, cmd)

	log.waitFor(t, "suites #1: ")
	edit(t, filepath.Join(dir, "example/v1/types_stable.go"), "// stableField exists on every cluster.", "// stableField exists on every cluster, always.")
	typeEdit := log.waitFor(t, "suites #2: ")
	if m := suiteCounts.FindStringSubmatch(typeEdit); m == nil || m[1] == "0" || m[2] != "0" || m[3] == "0" {
		t.Errorf("after the type edit: %q, want the suites of example/v1 to run and pass", typeEdit)
	}

	breakLastExpectation(t, filepath.Join(dir, suiteRel), "immutableField: foo", "immutableField: bar",
		"less than or equal to 10", "less than or equal to 99")
	broken := log.waitFor(t, "suites #3: ")
	// The ungated suite matches the CRD file of each of the 5 feature
	// sets: each pair fails the last test and skips the listed one; its
	// other 11 tests did not change since cycle #2 ran them.
	if m := suiteCounts.FindStringSubmatch(broken); m == nil || m[2] != "5" || m[3] != "5" || !strings.Contains(broken, ", 5 skipped (55 tests unchanged, not re-run) in ") {
		t.Errorf("after breaking %s: %q, want 5 failed, 5 skipped and 55 not re-run in its 5 pairs only", suiteRel, broken)
	}

	pid := cmd.Process.Pid
	children := childrenOf(pid)
	if len(children) == 0 && runtime.GOOS == "linux" {
		t.Error("codegen watch --suites runs no child process")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("codegen watch after SIGTERM: %v\n%s", err, log.text())
	}
	out := log.text()
	section := out[strings.Index(out, "suites #3: "):]
	if !strings.Contains(section, "FAIL  [example.openshift.io/v1, Resource=stableconfigtypes]") ||
		!regexp.MustCompile(`\n    --- FAIL: onUpdate/\S`).MatchString(section) ||
		!strings.Contains(section, filepath.Join(dir, suiteRel)+":") {
		t.Errorf("the failures after suites #3 do not name the pair, the test and the suite file:\n%s", section)
	}
	if strings.Contains(section, "--- FAIL: onCreate/"+skipped) || !strings.Contains(section, "--- SKIP: onCreate/"+skipped+": broken on purpose ("+skipList+":1)") {
		t.Errorf("the skipped test %q is not reported as skipped, with the reason and the skip list's line:\n%s", skipped, section)
	}
	for _, m := range regexp.MustCompile(`tests/stableconfigtypes\.example\.openshift\.io/([^:/\s]+\.yaml)`).FindAllStringSubmatch(section, -1) {
		if m[1] != filepath.Base(suiteRel) {
			t.Errorf("suite file %s ran, but only %s was edited:\n%s", m[1], suiteRel, section)
		}
	}
	for _, child := range children {
		if alive(child) {
			t.Errorf("child process %d of codegen is still running after it exited", child)
		}
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left in the temporary directory: %s", e.Name())
	}
}

// TestWatchSuitesServerFailure runs codegen watch --suites with a skip
// list that does not exist, so that the apitest child ends before its
// server starts: the watch says once that the suites are off and why,
// goes on generating after a save, says on that cycle's suites line that
// they did not run, and exits 0 on SIGTERM.
func TestWatchSuitesServerFailure(t *testing.T) {
	buildCommands(t)
	dir := exampleTree(t, true)
	missing := filepath.Join(t.TempDir(), "skip.yaml")
	cmd := exec.Command(commands.codegen, "watch", "--suites", "--apitest", commands.apitest, "--base-dir", dir, "--skip", missing)
	log := startLogged(t, cmd)
	const off = "error: --suites: the suites are off for the rest of this watch: apitest --serve ended before its API server was ready (exit status 3)"
	log.waitForAll(t, off, "watch #1: ")
	edit(t, filepath.Join(dir, "example/v1/types_stable.go"), "// stableField exists on every cluster.", "// stableField exists on every cluster, always.")
	cycle := log.waitFor(t, "watch #2: ")
	suites := log.waitFor(t, "suites #2: ")
	if !strings.HasPrefix(cycle, "watch #2: example/v1/types_stable.go") || strings.Contains(cycle, ": 0 written") {
		t.Errorf("after a type edit: %q, want the CRD files written", cycle)
	}
	if want := "suites #2: not run: apitest --serve ended before its API server was ready (exit status 3)"; suites != want {
		t.Errorf("suites line %q, want %q", suites, want)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("codegen watch after SIGTERM: %v, want exit status 0\n%s", err, log.text())
	}
	out := log.text()
	if !strings.Contains(out, "error: --"+skipFlag+": ") || !strings.Contains(out, missing) {
		t.Errorf("apitest's error about the skip list is not shown:\n%s", out)
	}
	if n := strings.Count(out, "error: --suites:"); n != 1 {
		t.Errorf("%d lines say the suites are off, want 1:\n%s", n, out)
	}
}

// suiteCounts reads a result line: passed, failed, pairs.
var suiteCounts = regexp.MustCompile(`^suites #\d+: (\d+) passed, (\d+) failed(?:, \d+ skipped)?(?: \(\d+ tests unchanged, not re-run\))? in (\d+) \(suite × CRD file\) pair`)

func goBuild(t testing.TB, pkg, out string) {
	t.Helper()
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", out, ".")
	build.Dir = pkg
	if data, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building %s: %v\n%s", pkg, err, data)
	}
}

// breakLastExpectation changes, in a suite file, the last occurrence of
// each from into its to (pairs of from, to), which is in the expectation
// of the last test holding it.
func breakLastExpectation(t *testing.T, p string, fromTo ...string) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for i := 0; i+1 < len(fromTo); i += 2 {
		from, to := fromTo[i], fromTo[i+1]
		at := strings.LastIndex(text, from)
		if at < 0 {
			t.Fatalf("%s has no %q", p, from)
		}
		text = text[:at] + to + text[at+len(from):]
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// outputLog is the combined output of a running command, line by line.
type outputLog struct {
	mu    sync.Mutex
	all   strings.Builder
	lines chan string
}

func startLogged(t testing.TB, cmd *exec.Cmd) *outputLog {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	l := &outputLog{lines: make(chan string, 1000)}
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			l.mu.Lock()
			l.all.WriteString(sc.Text() + "\n")
			l.mu.Unlock()
			l.lines <- sc.Text()
		}
		close(l.lines)
	}()
	return l
}

// waitFor returns the next line starting with prefix. The deadline only
// keeps a hung command from hanging the test.
func (l *outputLog) waitFor(t testing.TB, prefix string) string {
	t.Helper()
	deadline := time.After(5 * time.Minute)
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				t.Fatalf("the command ended before %q:\n%s", prefix, l.text())
			}
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-deadline:
			t.Fatalf("no %q line:\n%s", prefix, l.text())
		}
	}
}

// waitForAll waits for a line starting with each prefix, in any order.
func (l *outputLog) waitForAll(t testing.TB, prefixes ...string) {
	t.Helper()
	seen := map[string]bool{}
	for len(seen) < len(prefixes) {
		line := l.waitFor(t, "")
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				seen[p] = true
			}
		}
	}
}

func (l *outputLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all.String()
}

// childrenOf lists the processes whose parent is pid (Linux /proc).
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		if m := regexp.MustCompile(`(?m)^PPid:\s+(\d+)$`).FindSubmatch(status); m != nil && string(m[1]) == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}

// alive says whether a process exists and is not a zombie.
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}
