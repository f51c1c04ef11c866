package clicontract

import (
	"fmt"
	"strings"
)

// Message prefixes: every diagnostic line of every command starts with
// one of them, followed by "file:line: " when a place in a file is at
// fault.
const (
	ErrorPrefix   = "error: "
	WarningPrefix = "warning: "
)

// ErrorLine is msg as an error line: "error: msg", unless it already is.
func ErrorLine(msg string) string {
	if strings.HasPrefix(msg, ErrorPrefix) {
		return msg
	}
	return ErrorPrefix + msg
}

// WarningLine is msg as a warning line: "warning: msg".
func WarningLine(msg string) string { return WarningPrefix + msg }

// At is the "file:line: msg" form of a finding in a file; line 0 means
// the file as a whole.
func At(file string, line int, msg string) string {
	switch {
	case file == "":
		return msg
	case line > 0:
		return fmt.Sprintf("%s:%d: %s", file, line, msg)
	default:
		return file + ": " + msg
	}
}

// UsageHint is the line after a usage error: where to read the usage.
func UsageHint(commandPath string) string {
	return fmt.Sprintf("run '%s --help' for usage", commandPath)
}

// StaleHint is the last line of a --verify that found n stale files: the
// command to run without --verify, whatever make target wraps it in the
// repository at hand.
func StaleHint(commandPath string, n int) string {
	return fmt.Sprintf("%s --verify: %d file(s) out of date; run %s without --verify and commit the result", commandPath, n, commandPath)
}
