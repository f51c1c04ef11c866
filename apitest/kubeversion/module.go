package kubeversion

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/gatedcrd/gatedcrd/apitest/server"
	"github.com/gatedcrd/gatedcrd/internal/kubeprogram"
)

// modulePath is the module path of every generated program. It never
// leaves the cache, so it only needs to be valid; .invalid is reserved for
// names that resolve nowhere.
const modulePath = "gatedcrd.invalid/apiserver"

// programMain is the program's main package. It carries a "go:build
// ignore" line so that this module's own builds and go mod tidy skip it;
// the line is dropped when it is written into a program module.
//
//go:embed program/main.go
var programMain []byte

// ignoreLine is the build constraint programMain starts with.
const ignoreLine = "//go:build ignore\n\n"

// moduleFiles returns the files of the program module of v, by path
// relative to the module root: go.mod, main.go and server/*.go, the
// latter copied from package server.
func moduleFiles(v Version) (map[string][]byte, error) {
	if !bytes.HasPrefix(programMain, []byte(ignoreLine)) {
		return nil, fmt.Errorf("program/main.go does not start with %q", ignoreLine)
	}
	files := map[string][]byte{
		"go.mod":  kubeprogram.GoMod(modulePath, v),
		"main.go": bytes.TrimPrefix(programMain, []byte(ignoreLine)),
	}
	source, err := server.Source()
	if err != nil {
		return nil, fmt.Errorf("reading the server package's source: %w", err)
	}
	for name, data := range source {
		files["server/"+name] = data
	}
	return files, nil
}

// moduleHash identifies a program build (kubeprogram.Hash).
func moduleHash(files map[string][]byte, toolchain string) string {
	return kubeprogram.Hash(files, toolchain)
}
