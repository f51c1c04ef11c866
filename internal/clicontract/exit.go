package clicontract

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Exit statuses. Scripts and CI tell "stale" from "broken" by them, so
// every command gives the same status for the same kind of failure.
const (
	// ExitOK means success, including "nothing to do".
	ExitOK = 0
	// ExitFailed means the command did its job and the answer is no:
	// --verify found files that would change, a test failed, or a report
	// holds breaking findings.
	ExitFailed = 1
	// ExitUsage means the command line was wrong (an unknown flag, a
	// malformed or unsupported value, flags that exclude each other).
	ExitUsage = 2
	// ExitInput means the input is wrong: markers, manifests, Go types,
	// configuration files such as .gatedcrd.yaml, or a base or payload
	// directory that does not exist. Nothing was written.
	ExitInput = 3
	// ExitIO means reading or writing existing files failed (permissions,
	// a full disk, a directory where a file is expected).
	ExitIO = 4
)

// Error is a failure with its exit status. Msg is printed as it is, on
// standard error, before the command exits; an empty Msg prints nothing
// (the command has reported already).
type Error struct {
	Code int
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Failed is a verify or test failure: status 1 with msg as the last line.
func Failed(msg string) *Error { return &Error{Code: ExitFailed, Msg: msg} }

// Usagef is a wrong command line: status 2, "error: " and the message.
func Usagef(format string, args ...any) *Error {
	return &Error{Code: ExitUsage, Msg: ErrorLine(fmt.Sprintf(format, args...))}
}

// Inputf is bad input: status 3, "error: " and the message, which should
// start with the file and line at fault.
func Inputf(format string, args ...any) *Error {
	return &Error{Code: ExitInput, Msg: ErrorLine(fmt.Sprintf(format, args...))}
}

// IOf is a failed read or write: status 4, "error: " and the message.
func IOf(format string, args ...any) *Error {
	return &Error{Code: ExitIO, Msg: ErrorLine(fmt.Sprintf(format, args...))}
}

// PathError classifies a failure to open or read a file or directory the
// command line named: one that does not exist (or a path through a file)
// is bad input (3), any other failure, such as a permission denied, is
// I/O (4). what names it, e.g. "--base-dir".
func PathError(what string, err error) *Error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return Inputf("%s: %v", what, err)
	}
	return IOf("%s: %v", what, err)
}

// CheckDir fails unless path is a directory: the error of a --base-dir
// or payload directory that is not there. flag names it.
func CheckDir(flag, path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return PathError(flag, err)
	}
	if !info.IsDir() {
		return Inputf("%s: %s is not a directory", flag, path)
	}
	return nil
}

// Status is the exit status of err: 0 for nil, the code of an *Error in
// its chain, else 2: an error no one classified comes from parsing the
// command line (cobra's unknown flags and commands).
func Status(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ExitUsage
}
