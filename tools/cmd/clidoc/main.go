// Command clidoc writes docs/cli-reference.md, the --help of every codegen
// command, apitest and write-available-featuresets, or with -verify fails
// when the committed file differs from it. It runs the latter two with go
// run: they live in other modules. apitest links an API server, so its
// first build takes minutes; make test builds the same packages.
//
// Usage (in tools/): go run ./cmd/clidoc [-verify] [-root ..]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func main() {
	verify := flag.Bool("verify", false, "write nothing; exit 1 when the committed reference is stale")
	root := flag.String("root", "..", "the repository root")
	flag.Parse()
	var want bytes.Buffer
	others, err := otherHelps(*root)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(4)
	}
	if err := cli.WriteReference(&want, others...); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(4)
	}
	path := filepath.Join(*root, cli.ReferenceFile)
	if *verify {
		have, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(have, want.Bytes()) {
			fmt.Fprint(os.Stderr, tree.UnifiedDiff(cli.ReferenceFile, have, want.Bytes()))
			fmt.Fprintf(os.Stderr, "%s is out of date; run: make update-cli-reference\n", cli.ReferenceFile)
			os.Exit(1)
		}
		return
	}
	if err := tree.WriteFileAtomic(path, want.Bytes()); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(4)
	}
}

// otherHelps runs the --help of the commands of the other modules of the
// repository at root.
func otherHelps(root string) ([]cli.Help, error) {
	var out []cli.Help
	for _, c := range []struct{ name, moduleDir, pkg string }{
		{"apitest", "apitest", "./cmd/apitest"},
		{"write-available-featuresets", ".", "./features/cmd/write-available-featuresets"},
	} {
		cmd := exec.Command("go", "run", c.pkg, "--help")
		cmd.Dir = filepath.Join(root, c.moduleDir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		text, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("%s --help: %v\n%s", c.name, err, stderr.String())
		}
		out = append(out, cli.Help{Command: c.name, Text: string(text)})
	}
	return out, nil
}
