//go:build !unix

package rusage

import (
	"os"
	"time"
)

// Of is unknown where the OS does not report rusage.
func Of(*os.ProcessState) (int64, bool) { return 0, false }

// Peak is unknown where the OS does not report rusage.
func Peak() (self, children int64, ok bool) { return 0, 0, false }

// CPU is unknown where the OS does not report rusage.
func CPU() (time.Duration, bool) { return 0, false }
