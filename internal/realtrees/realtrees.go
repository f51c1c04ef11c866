// Package realtrees gives tests the real data the repository does not
// hold: real API trees (Each) and files the reference generator wrote
// (ReferenceData). Environment variables name them, so that `make test` on
// a fresh machine needs neither network nor that data and skips such
// tests; hack/conformance-variants.sh names the trees, openshift/api read
// in the module cache.
package realtrees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Env names the real trees' directories, separated by spaces.
const Env = "VARIANT_REAL_TREES"

// Each runs check as a subtest on every real tree of Env, named by its
// directory, and skips the test when Env is empty.
func Each(t *testing.T, check func(t *testing.T, dir string)) {
	t.Helper()
	dirs := strings.Fields(os.Getenv(Env))
	if len(dirs) == 0 {
		t.Skip(Env + " is not set; hack/conformance-variants.sh sets it")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { check(t, dir) })
	}
}
