package main

import (
	"fmt"

	"github.com/gatedcrd/gatedcrd/internal/rusage"
)

// peakMemory describes the peak resident set size of this process and of
// the largest child that has exited (the API server program, once
// stopped), for the numbers the run ends with.
func peakMemory() string {
	self, children, ok := rusage.Peak()
	if !ok {
		return "unknown"
	}
	mib := func(b int64) string { return fmt.Sprintf("%d MiB", b>>20) }
	if children == 0 {
		return mib(self) + " (API server in this process)"
	}
	return fmt.Sprintf("%s, API server program %s", mib(self), mib(children))
}
