//go:build !unix

package main

// peakMemory cannot tell on this platform.
func peakMemory() string { return "unknown" }
