// Command codegen generates FeatureGate-aware CustomResourceDefinition
// manifests from annotated Go API types. See the repository README.
package main

import (
	"os"

	"github.com/gatedcrd/gatedcrd/tools/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Main(version, os.Args[1:]))
}
