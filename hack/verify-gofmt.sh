#!/usr/bin/env bash
# Fails when a tracked Go file is not gofmt-formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=$(git ls-files '*.go' | grep -v '/testdata/' | xargs -r gofmt -l)
if [ -n "$bad" ]; then
  echo "gofmt needed on:" >&2
  echo "$bad" >&2
  exit 1
fi
