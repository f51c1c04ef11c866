//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS returns the child's peak resident set size in bytes. On Linux the
// kernel reports the maximum over the child and the descendants it waited
// for, so the go list processes that codegen runs are included.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	rss := int64(ru.Maxrss)
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		rss *= 1024 // kilobytes everywhere else
	}
	return rss, true
}
