#!/usr/bin/env bash
# Measures a bare `codegen --verify` (every generator) on the real tree of
# make conformance, the way openshift/api's `make verify-codegen` runs it,
# and prints a Markdown table (docs/performance.md, "The whole codegen"):
#
#  1. cold: an empty gatedcrd cache (no generated files, CRD verdicts or
#     programs kept);
#  2. unchanged tree: the cache filled by the run before;
#  3. after a type edit: a field added to a config/v1 type, another one
#     before each run so that the cache holds none of its files (--verify
#     then exits 1 naming the stale files);
#  4. one group-version (--api-group-versions config.openshift.io/v1),
#     unchanged tree.
#
# Each row is the median of BENCH_RUNS runs (cold: one), with the peak
# resident set size of the process tree. With REFERENCE_CODEGEN set to the
# reference binary built from the tree's tools/ module, it runs in a copy
# of the tree for the row below (its --verify rewrites files in place,
# hence the copy).
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

# edited_run BIN DIR CACHE ARGS...: one run right after a new edit (a
# field of another name each time, so that no run finds its files in the
# cache), the edit undone afterwards.
n_edit=0
edited_run() {
  local bin=$1 dir=$2 cache=$3
  shift 3
  local f=$dir/config/v1/types_apiserver.go
  n_edit=$((n_edit + 1))
  cp "$f" "$work/types.orig"
  sed -i "s|^type APIServerSpec struct {|type APIServerSpec struct {\n\t// benchField$n_edit is added by the benchmark.\n\t// +optional\n\tBenchField$n_edit []string \`json:\"benchField$n_edit,omitempty\"\`|" "$f"
  measure x "$bin" "$dir" "$cache" "$@"
  cp "$work/types.orig" "$f"
}

row() {
  local label=$1 bin=$2 dir=$3 cache=$4
  local cold warm edited one
  rm -rf "$cache"
  cold=$(median 1 x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify)
  warm=$(median "$runs" x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify)
  edited=$(for i in $(seq "$runs"); do edited_run "$bin" "$dir" "$cache" --base-dir . -v 1 --verify; done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
  one=$(median "$runs" x "$bin" "$dir" "$cache" --base-dir . -v 1 --verify --api-group-versions config.openshift.io/v1)
  echo "$label|$cold|$warm|$edited|$one"
}

# reference_row: the reference keeps nothing between runs, and one of its
# runs takes minutes: it runs once on the unchanged tree and once for the
# group-version.
reference_row() {
  local dir=$work/reftree unchanged one
  cp -r "$work/tree" "$dir"
  unchanged=$(median 1 x "$REFERENCE_CODEGEN" "$dir" "$work/refcache" --base-dir . -v 1 --verify)
  one=$(median 1 x "$REFERENCE_CODEGEN" "$dir" "$work/refcache" --base-dir . -v 1 --verify --api-group-versions config.openshift.io/v1)
  echo "reference (once)|-|$unchanged|-|$one"
}

results=$(row gatedcrd "$codegen" "$work/tree" "$work/cache")
if [ -n "${REFERENCE_CODEGEN:-}" ]; then
  results+=$'\n'$(reference_row)
fi
table=$(
  echo "Bare \`codegen --verify\` of $module (seconds, peak MB; median of $runs, cold once):"
  echo
  echo "| binary | cold cache | unchanged tree | after a type edit | one group-version |"
  echo "|---|---|---|---|---|"
  echo "$results" | while IFS='|' read -r label cold warm edited one; do
    cell() {
      if [ "$1" = - ]; then echo "-"; else set -- $1; echo "$1 s, $2 MB"; fi
    }
    echo "| $label | $(cell "$cold") | $(cell "$warm") | $(cell "$edited") | $(cell "$one") |"
  done
)
echo "$table"
[ -z "${BENCH_MARKDOWN:-}" ] || echo "$table" >"$BENCH_MARKDOWN"
