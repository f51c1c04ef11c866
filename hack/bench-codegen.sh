#!/usr/bin/env bash
# Measures a bare `codegen --verify` (every generator) on the real tree of
# make conformance, the way openshift/api's `make verify-codegen` runs it,
# and prints a Markdown table (docs/performance.md, "The whole codegen"):
#
#  1. cold: an empty gatedcrd cache (no generated files, CRD verdicts or
#     programs kept);
#  2. unchanged tree: the cache filled by the run before;
#  3. after a type edit: one field added to a config/v1 type (--verify then
#     exits 1 naming the stale files);
#  4. one group-version (--api-group-versions config.openshift.io/v1),
#     unchanged tree.
#
# Each row is the median of BENCH_RUNS runs (cold: one), with the peak
# resident set size of the process tree. With REFERENCE_CODEGEN set to the
# reference binary built from the tree's tools/ module, the same commands
# run it in a copy of the tree for the column beside (its --verify rewrites
# files in place, hence the copy).
#
# Usage: hack/bench-codegen.sh CODEGEN
# Environment: GO, BENCH_MODULE (MODULE@VERSION), BENCH_RUNS (default 3),
# REFERENCE_CODEGEN, BENCH_MARKDOWN (also write the table to this file).
set -euo pipefail
GO=${GO:-go}
module=${BENCH_MODULE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}
runs=${BENCH_RUNS:-3}
[ $# -eq 1 ] || { echo "usage: $0 CODEGEN" >&2; exit 2; }
codegen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-codegen.XXXXXX")
trap 'rm -rf "$work"' EXIT
GO=$GO "$root/hack/fetch-real-tree.sh" "$module" "$work/tree" >/dev/null

# measure NAME BIN DIR CACHE ARGS...: seconds and peak MB of one run.
measure() {
  local bin=$2 dir=$3 cache=$4
  shift 4
  local t0 t1 rss
  t0=$(date +%s.%N)
  rss=$( (cd "$dir" && GATEDCRD_CACHE=$cache /usr/bin/time -f '%M' "$bin" "$@" >/dev/null 2>"$work/err") ; tail -1 "$work/err")
  t1=$(date +%s.%N)
  printf '%.2f %d\n' "$(echo "$t1 - $t0" | bc)" "$((rss / 1024))"
}

# median RUNS NAME BIN DIR CACHE ARGS...: the median time and its RSS.
median() {
  local n=$1
  shift
  local i
  for i in $(seq "$n"); do measure "$@"; done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

# edit DIR: add a field to a config/v1 type, or take it out again.
edit() {
  local f=$1/config/v1/types_apiserver.go
  if grep -q BenchField "$f"; then
    sed -i '/BenchField/d' "$f"
  else
    sed -i 's|^type APIServerSpec struct {|type APIServerSpec struct {\n\t// benchField is added by the benchmark.\n\t// +optional\n\tBenchField []string `json:"benchField,omitempty"`|' "$f"
  fi
}

row() {
  local label=$1 bin=$2 dir=$3 cache=$4
  local cold warm edited one
  rm -rf "$cache"
  cold=$(median 1 x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify)
  warm=$(median "$runs" x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify)
  edit "$dir"
  edited=$(median "$runs" x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify)
  edit "$dir"
  one=$(median "$runs" x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify --api-group-versions config.openshift.io/v1)
  echo "$label|$cold|$warm|$edited|$one"
}

results=$(row gatedcrd "$codegen" "$work/tree" "$work/cache")
if [ -n "${REFERENCE_CODEGEN:-}" ]; then
  cp -r "$work/tree" "$work/reftree"
  results+=$'\n'$(row reference "$REFERENCE_CODEGEN" "$work/reftree" "$work/refcache")
fi
table=$(
  echo "Bare \`codegen --verify\` of $module (seconds, peak MB; median of $runs, cold once):"
  echo
  echo "| binary | cold cache | unchanged tree | after a type edit | one group-version |"
  echo "|---|---|---|---|---|"
  echo "$results" | while IFS='|' read -r label cold warm edited one; do
    cell() { set -- $1; echo "$1 s, $2 MB"; }
    echo "| $label | $(cell "$cold") | $(cell "$warm") | $(cell "$edited") | $(cell "$one") |"
  done
)
echo "$table"
[ -z "${BENCH_MARKDOWN:-}" ] || echo "$table" >"$BENCH_MARKDOWN"
