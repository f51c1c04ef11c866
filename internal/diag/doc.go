// Package diag collects the problems a run finds in its input.
//
// Every stage reports what is wrong with the user's tree as a Diagnostic: the
// file (and line, for Go sources), the marker or key involved, and a sentence
// saying what is wrong. Stages do not stop at the first problem: they add it
// to a List and carry on where that is safe, so that one run shows the user
// everything to fix. Warnings travel in the same list; whether a run fails is
// decided by the caller from List.HasErrors.
//
// Diagnostic is the one problem type of the repository's three modules (the
// root's configuration and YAML readers, the tools, the API test runner):
// like go/analysis' Diagnostic it is a position, a subject and a message,
// and like controller-tools' loader errors it is an error value, so that a
// problem travels as an error and lands in a List with its position intact.
// Position renders "file:line" in one place, for messages that name a place
// other than their own.
package diag
