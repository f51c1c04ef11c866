// Package goload loads and type-checks the Go packages of a run exactly once.
//
// A Universe is the one loaded world every stage works from: the root
// packages (every selected API group-version, given to go/packages as import
// paths in a single call, because directory roots would cost one load each),
// the packages they import (indexed lazily by controller-tools' loader, which
// is why the type walk of stage 1 and the schemas of stage 2 see the same
// types whatever --api-group-versions selects), the marker registry, one
// marker Collector whose parsed values are cached for the whole run, the
// marker lines with their positions (MarkerLines, associated once per
// package by package markerpos), and one TypeChecker. Universe.Loads says
// how many go/packages calls building it took, so that tests prove a run
// loads once without a process-wide counter.
//
// Start begins the load before the caller has everything LoadWith takes
// (the files discovery parses), so that the go command lists the packages,
// the longest part of a load, while the caller goes on; Pending.Finish
// completes it. The generated files no stage needs (package genfiles) are
// left out of every package before anything parses them.
//
// Between stages, DropFunctionBodies trims what no later step reads from
// the parsed packages (function bodies and the comments inside them, the
// type information of value expressions): most of the syntax of generated
// files, which would otherwise stay live for the whole run.
//
// ReportableErrors is the one filter of the errors recorded on a package:
// type errors are dropped (the shared TypeChecker checks declarations
// only, against placeholder imports), every other error is reported.
//
// Loader packages are not safe for concurrent use: callers use a Universe
// from one goroutine at a time.
package goload
