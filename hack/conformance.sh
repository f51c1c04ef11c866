#!/usr/bin/env bash
# Conformance of a real API tree OPTED IN to gatedcrd's own checks (the
# zero-configuration runs are hack/dropin.sh): a released version of
# openshift/api, fetched as a Go module through the module proxy (test
# input only, nothing of it is ever committed here), given the
# .gatedcrd.yaml hack/real-tree.sh writes (kubeVersion 1.32, so CRD
# validation findings are errors). Four runs, each of which must pass:
#
#  1. regenerate: delete every generated CRD file of a copy (each
#     zz_generated.featuregated-crd-manifests/ directory, each
#     zz_generated.featuregated-crd-manifests.yaml, each
#     zz_generated.crd-manifests/*.crd.yaml), run `codegen crd-manifests`,
#     and require every file byte-identical to the original, and no other;
#  2. verify: `codegen crd-manifests --verify` on an untouched copy; its
#     CRD validation runs at the tree's Kubernetes version (1.32, through
#     that release's validation program) and must find nothing; the same
#     run at 1.37 must report exactly the rejections listed in
#     hack/conformance/crd-validation-1.37.txt (position, CRD, variants);
#  3. strict: `codegen strict-baseline` accepts the tree's current strict
#     findings, then a strict `codegen crd-manifests --verify` passes;
#  4. watch: on a copy, edits saved while codegen watch runs (a doc
#     comment, a gated field, a type three group-versions hold) leave the
#     generated files byte-identical to a one-shot run's from scratch, and
#     undoing them to the original's (tools/pkg/watch TestRealTreeCycles).
#
# It prints the counts, the wall time and peak RSS of each run (with
# /usr/bin/time when installed) and a table docs/performance.md can quote.
#
# Usage: hack/conformance.sh
# Environment: GO (default go); CONFORMANCE_MODULE (MODULE@VERSION) and
# CONFORMANCE_FILES (the number of generated CRD files it holds) to try
# another tree; CONFORMANCE_KEEP=1 keeps the work directory.
set -euo pipefail
GO=${GO:-go}
module=${CONFORMANCE_MODULE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}
expected=${CONFORMANCE_FILES:-406}
root=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/conformance.XXXXXX")
if [ "${CONFORMANCE_KEEP:-}" = 1 ]; then
  echo "conformance: work directory $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi

codegen=$work/codegen
"$GO" -C "$root/tools" build -o "$codegen" ./cmd/codegen
# The tree as the benchmark uses it too (kubeVersion 1.32 in .gatedcrd.yaml).
GO=$GO "$root/hack/real-tree.sh" fetch "$module" "$work/original"

# generated lists the generated CRD files below a tree, sorted, relative.
generated() {
  "$root/hack/real-tree.sh" list-generated "$1"
}

# timed NAME COMMAND...: runs the command, records its wall time and peak
# RSS in $work/NAME.time when /usr/bin/time exists, fails when it fails.
timed() {
  local name=$1
  shift
  echo "conformance: $name: $*"
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v -o "$work/$name.time" "$@"
  else
    "$@"
  fi
}

# measured NAME: "wall s | peak RSS MB" of a timed run, or "n/a".
measured() {
  local f=$work/$1.time
  if [ ! -f "$f" ]; then
    echo "n/a | n/a"
    return
  fi
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; wall = s }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%.1f s | %.0f MB\n", wall, rss }' "$f"
}

generated "$work/original" >"$work/original.list"
count=$(wc -l <"$work/original.list")
echo "conformance: $module holds $count generated CRD file(s)"
if [ "$count" -ne "$expected" ]; then
  echo "conformance: expected $expected generated CRD files; is the tree or the file selection wrong?" >&2
  exit 1
fi

# 1. Regenerate from scratch.
cp -r "$work/original" "$work/regenerated"
"$root/hack/real-tree.sh" remove-generated "$work/regenerated"
left=$(generated "$work/regenerated" | wc -l)
if [ "$left" -ne 0 ]; then
  echo "conformance: $left generated file(s) survived the deletion" >&2
  exit 1
fi
timed regenerate "$codegen" crd-manifests --base-dir "$work/regenerated" --strict-markers=false -q

generated "$work/regenerated" >"$work/regenerated.list"
identical=0
differing=()
while IFS= read -r f; do
  if [ -f "$work/regenerated/$f" ] && cmp -s "$work/original/$f" "$work/regenerated/$f"; then
    identical=$((identical + 1))
  else
    differing+=("$f")
  fi
done <"$work/original.list"
extra=$(LC_ALL=C comm -13 "$work/original.list" "$work/regenerated.list")
echo "conformance: regenerated $identical/$count file(s) byte-identical, ${#differing[@]} differing or missing, $(printf '%s' "$extra" | grep -c . || true) extra"
if [ "${#differing[@]}" -gt 0 ] || [ -n "$extra" ]; then
  for f in "${differing[@]}"; do
    echo "--- differs: $f" >&2
    if [ -f "$work/regenerated/$f" ]; then
      diff -u "$work/original/$f" "$work/regenerated/$f" | head -40 >&2 || true
    else
      echo "(not generated)" >&2
    fi
  done
  if [ -n "$extra" ]; then
    echo "--- generated, but not in the original tree:" >&2
    echo "$extra" >&2
  fi
  exit 1
fi

# 2. --verify on the untouched copy, which it must not change.
timed verify "$codegen" crd-manifests --base-dir "$work/original" --verify --strict-markers=false -q
echo "conformance: --verify on the untouched tree passed"
if [ -z "${CONFORMANCE_MODULE:-}" ]; then
  set +e
  timed verify-1.37 "$codegen" crd-manifests --base-dir "$work/original" --verify --strict-markers=false -q --kube-version 1.37 2>"$work/verify-1.37.out"
  status=$?
  set -e
  "$root/hack/conformance/summarize-crd-validation.sh" <"$work/verify-1.37.out" >"$work/verify-1.37.summary"
  if [ "$status" -ne 3 ] || ! diff -u "$root/hack/conformance/crd-validation-1.37.txt" "$work/verify-1.37.summary" >&2; then
    echo "conformance: at Kubernetes 1.37, expected exit 3 with the CRD validation errors of hack/conformance/crd-validation-1.37.txt (diff above); got exit $status:" >&2
    cat "$work/verify-1.37.out" >&2
    exit 1
  fi
  echo "conformance: at Kubernetes 1.37 the CRD validation rejects what 1.37 rejects ($(wc -l <"$work/verify-1.37.summary") distinct errors)"
fi

# 3. Strict mode with a baseline of the tree's current findings.
cp -r "$work/original" "$work/strict"
timed strict-baseline "$codegen" strict-baseline --base-dir "$work/strict" -q
accepted=$(grep -c '^ *- file:' "$work/strict/.codegen-baseline.yaml" || true)
timed strict-verify "$codegen" crd-manifests --base-dir "$work/strict" --verify -q
echo "conformance: strict --verify passed with a baseline of $accepted entr(y/ies)"

# 4. Cycles of codegen watch on a copy, checked against one-shot runs.
cp -r "$work/original" "$work/watched"
echo "conformance: watch: edits through codegen watch on a copy of the tree"
GATEDCRD_WATCH_REAL_TREE="$work/watched" "$GO" -C "$root/tools" test -count=1 -run '^TestRealTreeCycles$' ./pkg/watch
echo "conformance: watch cycles wrote what one-shot runs write"

echo
echo "| Run on $module | Wall time | Peak RSS |"
echo "| --- | ---: | ---: |"
echo "| regenerate $count files (\`crd-manifests --strict-markers=false\`) | $(measured regenerate) |"
echo "| \`crd-manifests --verify --strict-markers=false\` | $(measured verify) |"
echo "| the same at \`--kube-version 1.37\` (rejected) | $(measured verify-1.37) |"
echo "| \`strict-baseline\` | $(measured strict-baseline) |"
echo "| strict \`crd-manifests --verify\` with the baseline | $(measured strict-verify) |"
echo
echo "conformance: PASS ($identical/$count byte-identical)"
