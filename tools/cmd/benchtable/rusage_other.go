//go:build !unix

package main

import "os"

// peakRSS is unknown where the OS does not report it through rusage.
func peakRSS(*os.ProcessState) (int64, bool) { return 0, false }
