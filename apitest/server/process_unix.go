//go:build unix

package server

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the given ID exists. Signal 0
// performs the existence and permission checks of kill(2) without sending
// anything; EPERM means the process exists but belongs to someone else.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
