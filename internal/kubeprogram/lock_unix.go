//go:build unix

package kubeprogram

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// LockFile takes an exclusive lock on path, creating the file, and
// returns the function that releases it. It waits for another holder
// until ctx ends. The kernel releases the lock of a process that dies.
//
// Build serialises the builds of a program name with it, across
// processes too; a builder that keeps its own programs in the cache does
// the same with a lock file in its directory.
func LockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for another build to release %s: %w", path, context.Cause(ctx))
		case <-time.After(200 * time.Millisecond):
		}
	}
}
