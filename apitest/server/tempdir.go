package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// tempDirPrefix starts the name of every directory a Server creates. The
// owning process ID follows it, then a dash and a random suffix chosen by
// os.MkdirTemp, e.g. "gatedcrd-apitest-4711-123456789".
const tempDirPrefix = "gatedcrd-apitest-"

// makeTempDir creates the private directory of one server below root
// (os.TempDir() when empty). Its name carries the current process ID so
// that sweepStaleTempDirs can tell whether its owner is still running.
func makeTempDir(root string) (string, error) {
	if root == "" {
		root = os.TempDir()
	}
	dir, err := os.MkdirTemp(root, fmt.Sprintf("%s%d-", tempDirPrefix, os.Getpid()))
	if err != nil {
		return "", fmt.Errorf("creating the server's temporary directory: %w", err)
	}
	return dir, nil
}

// ownerPID extracts the process ID from a directory name made by
// makeTempDir. ok is false for names that were not made by it.
func ownerPID(name string) (pid int, ok bool) {
	rest, found := strings.CutPrefix(name, tempDirPrefix)
	if !found {
		return 0, false
	}
	digits, _, found := strings.Cut(rest, "-")
	if !found {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// sweepStaleTempDirs removes the directories below root (os.TempDir() when
// empty) that makeTempDir created for a process that no longer exists: such
// a directory is what a test binary leaves behind when it is killed before
// it can stop its server. Directories of live processes, including this
// one, are left alone; so is anything not named by makeTempDir. It returns
// the removed paths and the errors met while removing.
func sweepStaleTempDirs(root string) (removed []string, err error) {
	if root == "" {
		root = os.TempDir()
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("listing %s for stale server directories: %w", root, err)
	}
	self := os.Getpid()
	var errs []error
	for _, entry := range entries {
		if !entry.IsDir() {
			continue
		}
		pid, ok := ownerPID(entry.Name())
		if !ok || pid == self || processAlive(pid) {
			continue
		}
		path := filepath.Join(root, entry.Name())
		if err := os.RemoveAll(path); err != nil {
			errs = append(errs, fmt.Errorf("removing stale server directory: %w", err))
			continue
		}
		removed = append(removed, path)
	}
	return removed, errors.Join(errs...)
}
