#!/usr/bin/env bash
# Runs `codegen compat` on two real API trees fetched as Go modules through
# the module proxy (test input only: nothing of them is copied into this
# repository) and checks the summary against
# tools/pkg/compat/testdata/real-summary.json. compat only reads files, so
# the trees are used where `go mod download` puts them.
#
# Then two pairs of real trees (the two above, and a pre-version tree of
# January 2026 with the old one) each become the two commits of a scratch
# git repository (base, then head), and the head tree's own
# hack/verify-crdify.sh and hack/verify-crd-schema-checker.sh run with
# COMPARISON_BASE=base and our binary as CODEGEN; each exits 0 or 1, and
# TestRealPair in tools/pkg/generators pins which, with every finding of
# both checks (tools/pkg/generators/testdata/real-pair-<pair>-<check>.txt).
#
# Usage: hack/conformance-compat.sh [-update]
#   -update  rewrite the expected summary instead of checking it
# Environment: GO (default go), COMPAT_OLD_MODULE, COMPAT_NEW_MODULE.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
old_module=${COMPAT_OLD_MODULE:-github.com/openshift/api@v0.0.0-20260302174620-dcac36b908db}
new_module=${COMPAT_NEW_MODULE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}

old=$(GO="$GO" hack/module-dir.sh "$old_module")
new=$(GO="$GO" hack/module-dir.sh "$new_module")

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$GO" -C tools build -o "$bin/codegen" ./cmd/codegen

# The report itself: breaking findings are expected (exit status 1). Wall
# time depends on the machine's load; user + sys is the work done.
status=0
TIMEFORMAT='codegen compat: %3R s wall, %3U s user, %3S s sys'
time "$bin/codegen" compat --base-dir "$new" --base-dir-old "$old" >"$bin/report.txt" || status=$?
if [ "$status" -ne 1 ]; then
  cat "$bin/report.txt" >&2
  echo "$0: codegen compat exited $status; expected 1 (the trees have breaking changes)" >&2
  exit 1
fi
tail -n 1 "$bin/report.txt"

update=()
pair_update=()
if [ "${1:-}" = "-update" ]; then
  update=(-args -update-real-summary)
  pair_update=(-args -update-real-pair)
fi
COMPAT_OLD_TREE=$old COMPAT_NEW_TREE=$new \
  "$GO" -C tools test -count=1 -run '^TestRealTrees$' ./pkg/compat "${update[@]}"

# A scratch repository per pair: base is the old tree, HEAD (and the work
# tree) the new one. Module zips carry no execute bits; the scripts get
# them.
commit() {
  chmod +x "$1"/hack/*.sh "$1"/hack/lib/*.sh 2>/dev/null || true
  git -C "$1" add -A
  git -C "$1" -c user.email=ci@example.io -c user.name=ci -c commit.gpgsign=false commit -q -m "$2"
}
scratch_pair() { # NAME OLD NEW
  local repo=$bin/$1
  mkdir -p "$repo"
  git -C "$repo" init -q -b master
  cp -r "$2/." "$repo/"
  chmod -R u+w "$repo"
  commit "$repo" base
  git -C "$repo" tag base
  find "$repo" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
  cp -r "$3/." "$repo/"
  chmod -R u+w "$repo"
  commit "$repo" head
}
run_script() { # REPO SCRIPT
  (cd "$1" && COMPARISON_BASE=base CODEGEN="$bin/codegen" "hack/$2") >"$1.$2.out" 2>&1
}
preversion=$(GO="$GO" hack/module-dir.sh "${COMPAT_PREVERSION_MODULE:-github.com/openshift/api@v0.0.0-20260114133223-6ab113cb7368}")
scratch_pair 2026-03-to-2026-05 "$old" "$new"
scratch_pair 2026-01-to-2026-03 "$preversion" "$old"
repos=
for pair in 2026-03-to-2026-05 2026-01-to-2026-03; do
  for script in verify-crdify.sh verify-crd-schema-checker.sh; do
    status=0
    TIMEFORMAT="$pair: hack/$script: %3R s wall, %3U s user, %3S s sys"
    time run_script "$bin/$pair" "$script" || status=$?
    # 1 is breaking findings, 0 none; which one each pair gives,
    # TestRealPair checks.
    if [ "$status" -gt 1 ]; then
      tail -40 "$bin/$pair.$script.out" >&2
      echo "$0: $pair: hack/$script exited $status" >&2
      exit 1
    fi
    grep -E '^(crdify|schemacheck): base' "$bin/$pair.$script.out"
  done
  repos="$repos${repos:+,}$pair=$bin/$pair"
done
CRDIFY_REAL_REPOS=$repos \
  "$GO" -C tools test -count=1 -run '^TestRealPair$' ./pkg/generators "${pair_update[@]}"
