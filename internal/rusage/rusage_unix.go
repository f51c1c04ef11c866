//go:build unix

package rusage

import (
	"os"
	"runtime"
	"syscall"
	"time"
)

// Of returns the peak resident set size of an exited child, in bytes. On
// Linux the kernel reports the maximum over the child and the descendants
// it waited for.
func Of(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return bytes(int64(ru.Maxrss)), true
}

// Peak returns the peak resident set size of this process and of the
// largest child it has waited for, in bytes (children is 0 when none
// has exited).
func Peak() (self, children int64, ok bool) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, 0, false
	}
	return bytes(int64(s.Maxrss)), bytes(int64(c.Maxrss)), true
}

// CPU returns the user and system CPU time of this process and of the
// children it has waited for, together: what a benchmark of work spread
// over a process and its server programs compares.
func CPU() (time.Duration, bool) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, false
	}
	total := time.Duration(0)
	for _, tv := range []syscall.Timeval{s.Utime, s.Stime, c.Utime, c.Stime} {
		total += time.Duration(tv.Nano())
	}
	return total, true
}

// bytes converts ru_maxrss to bytes.
func bytes(maxrss int64) int64 {
	return maxrss * unit(runtime.GOOS)
}

// unit is the size of ru_maxrss's unit on an operating system: bytes on
// Apple's, kilobytes on Linux and the BSDs (see getrusage(2) of each).
func unit(goos string) int64 {
	switch goos {
	case "darwin", "ios":
		return 1
	}
	return 1024
}
