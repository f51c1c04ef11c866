package server

import (
	"embed"
	"io/fs"
	"strings"
)

// sourceFiles is this package's own Go code.
//
//go:embed *.go
var sourceFiles embed.FS

// Source returns the package's Go files, tests excluded, by file name.
// Package kubeversion compiles them, with a small main, against another
// minor version of the Kubernetes libraries: the server program of every
// version is this very package, so the in-process server of the linked
// version and the programs of the others behave alike. The package must
// therefore use only API of the Kubernetes libraries that every supported
// version has (1.30 and later), except in compat.go, which the programs of
// older versions replace (apitest/kubeversion/program/server_<minor>/).
func Source() (map[string][]byte, error) {
	entries, err := fs.ReadDir(sourceFiles, ".")
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := sourceFiles.ReadFile(e.Name())
		if err != nil {
			return nil, err
		}
		out[e.Name()] = data
	}
	return out, nil
}
