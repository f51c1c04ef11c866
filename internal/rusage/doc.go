// Package rusage reads peak resident set sizes from the operating system,
// in bytes, for the memory figures the benchmark and the API test runner
// print. ru_maxrss is in kilobytes on Linux and the BSDs but in bytes on
// Apple's systems; this package is the one place that knows.
package rusage
