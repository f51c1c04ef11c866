package kubeversion

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"text/template"

	"github.com/gatedcrd/gatedcrd/apitest/server"
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

// goModTemplate pins the version's apiextensions-apiserver and etcd; the
// go command resolves everything else from their requirements (minimal
// version selection), as it would for any module that requires them.
var goModTemplate = template.Must(template.New("go.mod").Parse(`module ` + modulePath + `

go 1.23.0

require (
	go.etcd.io/etcd/server/v3 {{.Etcd}}
	k8s.io/apiextensions-apiserver {{.APIExtensions}}
)
`))

// moduleFiles returns the files of the program module of v, by path
// relative to the module root: go.mod, main.go and server/*.go, the
// latter copied from package server.
func moduleFiles(v Version) (map[string][]byte, error) {
	if !bytes.HasPrefix(programMain, []byte(ignoreLine)) {
		return nil, fmt.Errorf("program/main.go does not start with %q", ignoreLine)
	}
	var goMod bytes.Buffer
	if err := goModTemplate.Execute(&goMod, v); err != nil {
		return nil, err
	}
	files := map[string][]byte{
		"go.mod":  goMod.Bytes(),
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

// moduleHash identifies a program build: the module's files and the
// toolchain (go version, GOOS, GOARCH) that compiles them. A change to
// package server, to the program or to the version table yields another
// hash, hence another cache entry.
func moduleHash(files map[string][]byte, toolchain string) string {
	h := sha256.New()
	fmt.Fprintf(h, "toolchain %s\n", toolchain)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "file %s %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
