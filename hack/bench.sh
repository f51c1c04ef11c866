#!/usr/bin/env bash
# Measures codegen on two trees and prints, for each, a Markdown table with
# PASS/MISS per performance target (docs/performance.md):
#
#  1. a synthetic API tree at the scale of a large API repository
#     (tools/cmd/synthtree);
#  2. the real API tree of the conformance test, prepared as
#     hack/conformance.sh prepares it (hack/real-tree.sh fetch), with its
#     generated CRD files removed; its single group-version run regenerates
#     BENCH_GROUP_VERSION.
#
# tools/cmd/benchtable runs update from scratch, update with nothing to
# change, verify and one group-version, BENCH_RUNS times each, and reports
# the fastest repetition. Everything lives in a temporary directory that is
# removed afterwards.
#
# Usage: hack/bench.sh [synthtree flags, e.g. --seed 2 or --groups 5]
# Environment:
#   GO                   go command (default go)
#   BENCH_ONLY           synthetic or real: measure only that tree
#   BENCH_MODULE         MODULE@VERSION of the real tree (default: the
#                        conformance test's; make bench passes CONFORMANCE_MODULE)
#   BENCH_GROUP_VERSION  single group-version of the real tree (default
#                        config.openshift.io/v1)
#   BENCH_RUNS           repetitions (default 3)
#   BENCH_CODEGEN        measure this codegen binary instead of building one
#                        (e.g. an older build, for a before/after comparison)
#   BENCH_PROFILE_DIR    also write CPU and heap profiles of verify and of the
#                        single group-version update on the real tree there
#   BENCH_MARKDOWN       also write the reports to this file
set -euo pipefail
GO=${GO:-go}
only=${BENCH_ONLY:-}
module=${BENCH_MODULE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}
gv=${BENCH_GROUP_VERSION:-config.openshift.io/v1}
runs=${BENCH_RUNS:-3}
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
markdown=${BENCH_MARKDOWN:+$(absolute "$BENCH_MARKDOWN")}
profiles=${BENCH_PROFILE_DIR:+$(mkdir -p "$BENCH_PROFILE_DIR" && cd "$BENCH_PROFILE_DIR" && pwd)}
codegen=${BENCH_CODEGEN:+$(absolute "$BENCH_CODEGEN")}
case "$only" in "" | synthetic | real) ;; *)
  echo "$0: BENCH_ONLY must be synthetic or real" >&2
  exit 2
  ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gatedcrd-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -n "$markdown" ] && : >"$markdown"

for cmd in synthtree benchtable; do
  "$GO" -C tools build -o "$tmp/$cmd" "./cmd/$cmd"
done
if [ -z "$codegen" ]; then
  codegen=$tmp/codegen
  "$GO" -C tools build -o "$codegen" ./cmd/codegen
fi

# report TITLE BENCHTABLE-ARGS...: runs benchtable, prints its report under
# a heading and appends it to the markdown file.
report() {
  local title=$1
  shift
  "$tmp/benchtable" --codegen "$codegen" --runs "$runs" --markdown "$tmp/report.md" "$@" >/dev/null
  { echo "### $title"; echo; cat "$tmp/report.md"; echo; } | tee -a "${markdown:-/dev/null}"
}

if [ "$only" != real ]; then
  "$tmp/synthtree" --out "$tmp/synthetic" --go-sum tools/go.sum -q "$@"
  report "Synthetic tree (synthtree${*:+ $*})" --tree "$tmp/synthetic"
fi

if [ "$only" != synthetic ]; then
  GO=$GO hack/real-tree.sh fetch "$module" "$tmp/real" >/dev/null
  cp -r "$tmp/real" "$tmp/real-scratch"
  hack/real-tree.sh remove-generated "$tmp/real-scratch"
  # Not measured: builds the CRD validation program of the tree's Kubernetes
  # release on a cold cache (minutes) and warms the go list and file caches.
  "$codegen" crd-manifests --base-dir "$tmp/real" --verify --strict-markers=false -q
  # The tree has strict-mode findings; conformance runs it leniently too.
  report "Real tree ($module)" --tree "$tmp/real-scratch" --group-version "$gv" \
    --arg=--strict-markers=false --arg=-q ${profiles:+--profile "$profiles"}
fi
