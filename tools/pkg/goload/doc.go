// Package goload loads and type-checks the Go packages of a run exactly once.
//
// A Universe is the one loaded world every stage works from: the root
// packages (every selected API group-version, given to go/packages as import
// paths in a single call, because directory roots would cost one load each),
// the packages they import (indexed lazily by controller-tools' loader, which
// is why the type walk of stage 1 and the schemas of stage 2 see the same
// types whatever --api-group-versions selects), the marker registry, one
// marker Collector whose parsed values are cached for the whole run, and one
// TypeChecker.
//
// Loader packages are not safe for concurrent use: callers use a Universe
// from one goroutine at a time.
package goload
