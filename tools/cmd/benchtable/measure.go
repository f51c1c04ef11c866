package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/internal/rusage"
)

// result is what one run measured.
type result struct {
	Spec     runSpec
	ExitCode int   // -1 when the child could not be started
	Err      error // start or wait failure other than a non-zero exit
	Wall     time.Duration
	CPU      time.Duration // user + system time of the child and what it waited for
	RSS      int64         // bytes; 0 when unknown
	RSSKnown bool
	Load     string // one-minute load average when the run started, "" when unknown
	Stats    *stats
	StatsErr error
	Output   []byte // combined stdout and stderr, kept for failures
}

func (r result) ok() bool { return r.Err == nil && r.ExitCode == 0 }

// measure runs bin with s.Args plus --stats statsFile and records the result.
func measure(bin string, s runSpec, statsFile string) result {
	r := result{Spec: s, ExitCode: -1, Load: loadAverage()}
	var out bytes.Buffer
	cmd := exec.Command(bin, append(clone(s.Args), "--stats", statsFile)...)
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	err := cmd.Run()
	r.Wall = time.Since(start)
	r.Output = out.Bytes()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr):
	default:
		r.Err = err
	}
	if ps := cmd.ProcessState; ps != nil {
		r.ExitCode = ps.ExitCode()
		r.CPU = ps.UserTime() + ps.SystemTime()
		r.RSS, r.RSSKnown = rusage.Of(ps)
	}
	r.Stats, r.StatsErr = readStats(statsFile)
	return r
}

// takeProfiles runs each of specs once more with codegen's profile flags,
// writing DIR/<verify|single>.{cpu,mem}.pprof, and returns notes for the
// report: where the profiles are and how to read them, or why one is
// missing.
func takeProfiles(bin, dir string, specs []runSpec, stderr io.Writer) []string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return []string{fmt.Sprintf("No profiles: %v", err)}
	}
	var notes, written []string
	for _, s := range specs {
		name := "verify"
		if s.Single {
			name = "single"
		}
		cpu, mem := filepath.Join(dir, name+".cpu.pprof"), filepath.Join(dir, name+".mem.pprof")
		s.Args = append(clone(s.Args), "--cpuprofile", cpu, "--memprofile", mem)
		fmt.Fprintf(stderr, "benchtable: profiling %s ...\n", s.Name)
		r := measure(bin, s, filepath.Join(dir, name+".stats.json"))
		if !r.ok() {
			stderr.Write(tail(r.Output, 40))
			notes = append(notes, fmt.Sprintf("Profiling %s failed (exit status %d); does this codegen have --cpuprofile?", s.Name, r.ExitCode))
			continue
		}
		written = append(written, "`"+cpu+"`", "`"+mem+"`")
	}
	if len(written) > 0 {
		notes = append(notes, fmt.Sprintf("Profiles (not measured runs): %s; read them with `go tool pprof -top FILE` (heap: add `-sample_index=alloc_space`).",
			strings.Join(written, ", ")))
	}
	return notes
}

// best returns the successful repetition with the least wall time, the
// least contended one on a shared machine, or the first failed one, so a
// failure is never hidden behind a success.
func best(rs []result) result {
	b := rs[0]
	for _, r := range rs {
		if !r.ok() {
			return r
		}
		if r.Wall < b.Wall {
			b = r
		}
	}
	return b
}

// tail returns the last n lines of b.
func tail(b []byte, n int) []byte {
	lines := bytes.SplitAfter(b, []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, nil)
}

// loadAverage returns the one-minute load average where /proc/loadavg
// exists, else "".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// fileState is what snapshot records of a path: enough to notice that a
// run rewrote a file it found.
type fileState struct {
	Dir     bool
	Size    int64
	ModTime time.Time
}

// snapshot records every path below tree, relative, so that restore can
// remove what the runs added.
func snapshot(tree string) (map[string]fileState, error) {
	paths := map[string]fileState{}
	err := filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(tree, p)
		paths[rel] = fileState{Dir: d.IsDir(), Size: info.Size(), ModTime: info.ModTime()}
		return err
	})
	return paths, err
}

// restore removes every file and directory below tree that is not in
// before and returns the files of before that the runs rewrote. A tree
// without generated manifests only gains files (an update writes what is
// missing, --verify writes nothing), so this brings it back to its state
// before the first cold update; a rewritten file cannot be restored, and
// the caller reports it.
func restore(tree string, before map[string]fileState) (rewritten []string, err error) {
	now, err := snapshot(tree)
	if err != nil {
		return nil, err
	}
	var added []string
	for p, st := range now {
		was, ok := before[p]
		switch {
		case !ok:
			added = append(added, p)
		case !st.Dir && (st.Size != was.Size || !st.ModTime.Equal(was.ModTime)):
			rewritten = append(rewritten, p)
		}
	}
	// Deepest first: a path sorts after its directory, so in reverse
	// order a directory is empty when its turn comes.
	slices.SortFunc(added, func(a, b string) int { return strings.Compare(b, a) })
	for _, p := range added {
		if err := os.Remove(filepath.Join(tree, p)); err != nil {
			return nil, err
		}
	}
	slices.Sort(rewritten)
	return rewritten, nil
}
