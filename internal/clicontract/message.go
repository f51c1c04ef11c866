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
