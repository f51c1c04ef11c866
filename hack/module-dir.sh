#!/usr/bin/env bash
# Prints the directory of a Go module in the module cache, downloading it
# through the module proxy first if needed. The directory is read-only.
#
# Usage: hack/module-dir.sh MODULE@VERSION
# Environment: GO (default go).
set -euo pipefail
GO=${GO:-go}
if [ $# -ne 1 ]; then
  echo "usage: $0 MODULE@VERSION" >&2
  exit 2
fi
# go mod download needs no main module; -json tells where the module landed.
dir=$(cd "${TMPDIR:-/tmp}" && "$GO" mod download -json "$1" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
  echo "$0: go mod download $1 did not report a directory" >&2
  exit 1
fi
echo "$dir"
