// Package clicontract is the one command-line contract of gatedcrd's
// commands (codegen, apitest, write-available-featuresets): their exit
// statuses, the format of their messages, which stream gets what, the
// flags they share and the shape of their --help. docs/cli.md describes
// it for users; the commands use this package so that they cannot drift
// apart, and tools/internal/cli's contract tests run all three to check.
//
// Streams: results (test lines, tables, reports, the last "N passed, M
// failed" line) go to standard output, so that a script can capture them;
// diagnostics (progress, warnings, errors) go to standard error. --help
// goes to standard output and exits 0.
package clicontract
