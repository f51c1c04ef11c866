//go:build unix

package watch

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) this process used so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
