// Command clidoc writes docs/cli-reference.md, the --help of every codegen
// command, or with -verify fails when the committed file differs from it.
//
// Usage (in tools/): go run ./cmd/clidoc [-verify] [-root ..]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
	"github.com/gatedcrd/gatedcrd/tools/pkg/tree"
)

func main() {
	verify := flag.Bool("verify", false, "write nothing; exit 1 when the committed reference is stale")
	root := flag.String("root", "..", "the repository root")
	flag.Parse()
	var want bytes.Buffer
	if err := cli.WriteReference(&want); err != nil {
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
