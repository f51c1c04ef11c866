#!/usr/bin/env bash
# Prints the directory of a Go module in the module cache, downloading it
# through the module proxy first if needed. The directory is read-only.
#
# A failed download is retried: the checksum database, reached through
# the proxy, answers some lookups with 404 Not Found for a while (one in
# two, on 2026-12-03, for openshift/api@v0.0.0-20251023193535-8691c3014652).
# One that keeps failing is reported with go's own error: go mod download
# -json prints its error inside the JSON on standard output, so the script
# must print it, or its caller would exit without a word.
#
# Usage: hack/module-dir.sh MODULE@VERSION
# Environment: GO (default go), MODULE_DIR_ATTEMPTS (default 8).
set -euo pipefail
GO=${GO:-go}
if [ $# -ne 1 ]; then
  echo "usage: $0 MODULE@VERSION" >&2
  exit 2
fi
attempts=${MODULE_DIR_ATTEMPTS:-8}
for attempt in $(seq 1 "$attempts"); do
  # go mod download needs no main module; -json tells where the module landed.
  status=0
  json=$(cd "${TMPDIR:-/tmp}" && "$GO" mod download -json "$1" 2>&1) || status=$?
  dir=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ "$status" -eq 0 ] && [ -n "$dir" ] && [ -d "$dir" ]; then
    echo "$dir"
    exit 0
  fi
  echo "$0: go mod download $1 failed (attempt $attempt of $attempts, exit $status):" >&2
  printf '%s\n' "$json" | sed 's/^/  /' >&2
  if [ "$attempt" -lt "$attempts" ]; then
    sleep $((attempt * 2))
  fi
done
exit 1
