package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gatedcrd/gatedcrd/apitest/kubeversion"
	"github.com/gatedcrd/gatedcrd/internal/rusage"
)

// serverMemory is what one API server with a large corpus installed
// may take, with its client: the memory limit its garbage collector is
// given (kubeversion's programGC, 1.5 GiB, which trades memory for CPU);
// without the limit the 1.32 program peaked at 947 MiB on the
// openshift/api corpus (docs/apitest-kube-versions.md).
const serverMemory = 3 << 29

// versionLimit returns how many versions of a run on n versions run at
// once, and why: one per core, at least two (the servers spend much of
// their time waiting for the server to settle after CRD changes, so two
// keep even one core busy), and no more than the available memory holds
// at serverMemory each.
func versionLimit(n int) (int, string) {
	cores := runtime.NumCPU()
	limit, why := max(2, cores), fmt.Sprintf("%d cores", cores)
	if avail, ok := availableMemory(); ok {
		byMemory := max(1, int(avail/serverMemory))
		why += fmt.Sprintf(", %d GiB of memory available", avail>>30)
		if byMemory < limit {
			limit = byMemory
			why += ", about 1.5 GiB per server"
		}
	}
	return min(limit, max(n, 1)), why
}

// availableMemory reads MemAvailable of /proc/meminfo (Linux); ok is
// false elsewhere.
func availableMemory() (bytes uint64, ok bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kib, err := strconv.ParseUint(fields[1], 10, 64)
			return kib << 10, err == nil
		}
	}
	return 0, false
}

// buildOnly builds the server program of each chosen version, or finds
// it in the cache, and prints where it is, its size and how long that
// took, so that CI can build them in a step of its own and cache
// $GATEDCRD_CACHE. The linked version needs no program. The last line is
// "N built, M failed" (a cached program counts as built); the exit status
// is 0 only if every program is there.
func buildOnly(ctx context.Context, cfg *config, stdout, progress io.Writer) int {
	versions := cfg.versions
	if !cfg.matrix() {
		versions = []kubeversion.Version{cfg.version}
	}
	fmt.Fprintf(progress, "apitest: building the API server programs of Kubernetes %s (%s)\n", strings.Join(minorsOf(versions), ", "), cfg.target.Reason)
	built, failed := 0, 0
	start := time.Now()
	for _, v := range versions {
		if v.Minor == kubeversion.Linked {
			fmt.Fprintf(stdout, "ok    %s: linked into apitest, runs in its process; nothing to build\n", v.Minor)
			built++
			continue
		}
		begin := time.Now()
		buildLog := &sawWrite{w: progress}
		path, err := buildProgram(ctx, v, kubeversion.BuildOptions{Progress: buildLog})
		took := time.Since(begin).Round(time.Millisecond)
		if err != nil {
			fmt.Fprintf(stdout, "FAIL  %s: %s\n", v.Minor, indentTail(err.Error()))
			failed++
			continue
		}
		how := "found in the cache"
		if buildLog.wrote {
			how = "built"
		}
		size := "size unknown"
		if info, err := os.Stat(path); err == nil {
			size = fmt.Sprintf("%.1f MiB", float64(info.Size())/(1<<20))
		}
		fmt.Fprintf(stdout, "ok    %s: %s in %v: %s (%s)\n", v.Minor, how, took, path, size)
		built++
	}
	fmt.Fprintf(progress, "apitest: finished in %v; peak RSS %s\n", time.Since(start).Round(time.Millisecond), buildMemory())
	fmt.Fprintf(stdout, "%d built, %d failed\n", built, failed)
	if failed > 0 {
		return exitFailed
	}
	return exitPassed
}

// buildProgram builds a version's program; a variable so that tests can
// stand in for the build.
var buildProgram = kubeversion.Build

// sawWrite passes writes through and records that there was one: Build
// writes progress only when it builds.
type sawWrite struct {
	w     io.Writer
	wrote bool
}

func (s *sawWrite) Write(p []byte) (int, error) {
	s.wrote = true
	return s.w.Write(p)
}

func minorsOf(vs []kubeversion.Version) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Minor
	}
	return out
}

// buildMemory describes the peak resident set size of this process and
// of the largest child, which in a build is the go command's compiler or
// linker, not a server.
func buildMemory() string {
	self, children, ok := rusage.Peak()
	if !ok {
		return "unknown"
	}
	return fmt.Sprintf("%d MiB, largest go command child %d MiB", self>>20, children>>20)
}
