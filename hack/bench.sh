#!/usr/bin/env bash
# Measures codegen on a synthetic API tree at the scale of a large API
# repository and prints a Markdown table with PASS/MISS per performance
# target (docs/performance.md). Everything lives in a temporary directory
# that is removed afterwards.
#
# Usage: hack/bench.sh [synthtree flags, e.g. --seed 2 or --groups 5]
# Environment: GO (default go); BENCH_MARKDOWN=FILE also writes the report
# to FILE.
set -euo pipefail
GO=${GO:-go}
markdown=${BENCH_MARKDOWN:-}
if [ -n "$markdown" ]; then
  markdown=$(cd "$(dirname "$markdown")" && pwd)/$(basename "$markdown")
fi
cd "$(dirname "$0")/.."

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gatedcrd-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for cmd in codegen synthtree benchtable; do
  "$GO" -C tools build -o "$tmp/$cmd" "./cmd/$cmd"
done
"$tmp/synthtree" --out "$tmp/tree" --go-sum tools/go.sum "$@"
"$tmp/benchtable" --codegen "$tmp/codegen" --tree "$tmp/tree" ${markdown:+--markdown "$markdown"}
