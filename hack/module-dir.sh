#!/usr/bin/env bash
# Prints the directory of a Go module in the module cache, downloading it
# through the module proxy first if needed. The directory is read-only.
#
# The checksum database, reached through the proxy, answers some lookups
# with 404 Not Found for hours (six attempts in seven, on 2026-12-03, for
# openshift/api@v0.0.0-20251023193535-8691c3014652). A failed download is
# therefore retried; when it keeps failing and hack/real-trees.sum has the
# module's checksums, the module is downloaded without the lookup and
# checked against them instead. Every failure is reported with go's own
# error: go mod download -json prints it inside the JSON on standard
# output, so the script must print it, or its caller would exit without a
# word.
#
# Usage: hack/module-dir.sh MODULE@VERSION
# Environment: GO (default go), MODULE_DIR_ATTEMPTS (default 3).
set -euo pipefail
GO=${GO:-go}
if [ $# -ne 1 ]; then
  echo "usage: $0 MODULE@VERSION" >&2
  exit 2
fi
path=${1%@*}
version=${1##*@}
sums=$(dirname "$0")/real-trees.sum

# field NAME: the value of a string field of the JSON in $json.
field() {
  printf '%s\n' "$json" | sed -n "s/^[[:space:]]*\"$1\": \"\\(.*\\)\",\\{0,1\\}\$/\\1/p" | head -1
}

# download [ENV...]: one go mod download; sets json, status and dir.
download() {
  status=0
  # go mod download needs no main module; -json tells where the module landed.
  json=$(cd "${TMPDIR:-/tmp}" && env "$@" "$GO" mod download -json "$path@$version" 2>&1) || status=$?
  dir=$(field Dir)
}

ok() { [ "$status" -eq 0 ] && [ -n "$dir" ] && [ -d "$dir" ]; }

attempts=${MODULE_DIR_ATTEMPTS:-3}
for attempt in $(seq 1 "$attempts"); do
  download
  if ok; then
    echo "$dir"
    exit 0
  fi
  echo "$0: go mod download $1 failed (attempt $attempt of $attempts, exit $status):" >&2
  printf '%s\n' "$json" | sed 's/^/  /' >&2
  if [ "$attempt" -lt "$attempts" ]; then
    sleep $((attempt * 2))
  fi
done

want=$(awk -v p="$path" -v v="$version" '$1 == p && $2 == v { print $3, $4 }' "$sums")
if [ -z "$want" ]; then
  echo "$0: $1 is not in $sums, so it cannot be checked without the checksum database" >&2
  exit 1
fi
download GONOSUMDB="$path"
if ! ok; then
  echo "$0: go mod download $1 without the checksum database failed too (exit $status):" >&2
  printf '%s\n' "$json" | sed 's/^/  /' >&2
  exit 1
fi
got="$(field Sum) $(field GoModSum)"
if [ "$got" != "$want" ]; then
  echo "$0: $1 has checksums $got, but $sums lists $want; do not use $dir (remove it from the module cache)" >&2
  exit 1
fi
echo "$0: $1 checked against $sums instead of the checksum database" >&2
echo "$dir"
