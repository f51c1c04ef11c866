package admission

import (
	"embed"
	"io/fs"
	"strings"
)

// sourceFiles is this package's own Go code.
//
//go:embed *.go
var sourceFiles embed.FS

// Source returns the package's Go files, tests excluded, by file name, for
// the validation program of another Kubernetes release.
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
