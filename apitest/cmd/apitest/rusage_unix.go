//go:build unix

package main

import (
	"fmt"
	"runtime"
	"syscall"
)

// peakMemory describes the peak resident set size of this process and of
// the largest child that has exited (the API server program, once
// stopped), for the numbers the run ends with.
func peakMemory() string {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return "unknown"
	}
	// ru_maxrss is in kilobytes on Linux and in bytes on the BSDs.
	unit := int64(1024)
	if runtime.GOOS == "darwin" || runtime.GOOS == "freebsd" || runtime.GOOS == "netbsd" || runtime.GOOS == "openbsd" {
		unit = 1
	}
	mib := func(maxrss int64) string { return fmt.Sprintf("%d MiB", maxrss*unit>>20) }
	if children.Maxrss == 0 {
		return mib(self.Maxrss) + " (API server in this process)"
	}
	return fmt.Sprintf("%s, API server program %s", mib(self.Maxrss), mib(children.Maxrss))
}
