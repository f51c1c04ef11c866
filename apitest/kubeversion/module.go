package kubeversion

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"

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

// serverOverrides are the files of package server that the programs of
// older versions replace: program/server_<minor>/<file> replaces
// server/<file> in the program of <minor> (compat.go, for the calls whose
// API changed since). Each starts with the ignore line too.
//
//go:embed program/server_*
var serverOverrides embed.FS

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
	dir := "program/server_" + v.Minor
	overrides, err := fs.ReadDir(serverOverrides, dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range overrides {
		data, err := serverOverrides.ReadFile(dir + "/" + e.Name())
		if err != nil {
			return nil, err
		}
		if !bytes.HasPrefix(data, []byte(ignoreLine)) {
			return nil, fmt.Errorf("%s/%s does not start with %q", dir, e.Name(), ignoreLine)
		}
		if files["server/"+e.Name()] == nil {
			return nil, fmt.Errorf("%s/%s replaces no file of package server", dir, e.Name())
		}
		files["server/"+e.Name()] = bytes.TrimPrefix(data, []byte(ignoreLine))
	}
	return files, nil
}

// moduleHash identifies a program build (kubeprogram.Hash).
func moduleHash(files map[string][]byte, toolchain string) string {
	return kubeprogram.Hash(files, toolchain)
}
