package repoconfig

import "github.com/gatedcrd/gatedcrd/internal/yamlfile"

// Problem is one mistake in the configuration file, rendered
// "file:line: key: message" (the strict YAML files' one problem type).
type Problem = yamlfile.Problem

// Error holds every problem of one file, in file order.
type Error = yamlfile.Error
