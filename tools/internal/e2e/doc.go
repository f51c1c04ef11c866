// Package e2e holds end-to-end tests that use gatedcrd the way an operator
// repository does: as a Go tool dependency of a separate module.
package e2e
