#!/usr/bin/env bash
# The drop-in test (docs/zero-configuration.md): a real openshift/api tree, fetched as a Go
# module through the module proxy, run through its OWN scripts with CODEGEN
# set to our binary and nothing added to the tree. Every script must exit 0
# and leave the tree exactly as committed:
#
#  1. hack/verify-codegen-crds.sh on the untouched tree;
#  2. hack/verify-compatibility.sh on the untouched tree;
#  3. every generated CRD file deleted, then hack/update-codegen-crds.sh,
#     which must bring back every file byte for byte and write no other;
#  4. hack/verify-deepcopy.sh, hack/verify-swagger-docs.sh,
#     hack/verify-openapi.sh and a bare `codegen --verify` (the tree's
#     hack/update-codegen.sh with EXTRA_ARGS=--verify, as its Makefile's
#     verify-codegen runs it) on the untouched tree;
#  5. every file of the Go generators and of the CRD stages deleted, then
#     hack/update-codegen.sh (a bare codegen), which must bring back every
#     one byte for byte.
#
#  6. hack/verify-protobuf.sh on the tree with vendor/ (as a checkout has
#     it), which must leave it as committed. From August 2026 the script
#     runs `codegen go-to-protobuf --verify`; before, it runs no codegen but
#     protoc 23, go-to-protobuf, protoc-gen-gogo and goimports, which
#     hack/protobuf-tools.sh gathers (a module zip has no tools/ module),
#     and wants the tree at $GOPATH/src/<module path>: the tree is kept
#     there throughout.
#
# "As committed" is checked with git: the copy is committed into a scratch
# repository first, and `git status --porcelain --ignored` must print
# nothing after each step (so no file of ours, a baseline or a
# configuration, may appear either). Warnings are allowed and counted.
#
# Usage: hack/dropin.sh CODEGEN MODULE@VERSION
# Environment: GO (default go); DROPIN_KEEP=1 keeps the work directory;
# DROPIN_CONFIG, when set, is a .gatedcrd.yaml committed into the tree
# before the scripts run: for a tree that needs one line of ours, such as
# `referenceEra: "2026-02"` for a reference of February-March 2026, which
# no payload file can tell apart from today's. DROPIN_STEPS=crds runs the
# CRD steps only (1 and 3): for trees whose other generators an older
# tree of the same reference covers, at a fraction of the time.
set -euo pipefail
GO=${GO:-go}
if [ $# -ne 2 ]; then
  echo "usage: $0 CODEGEN MODULE@VERSION" >&2
  exit 2
fi
codegen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
module=$2
root=$(cd "$(dirname "$0")/.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/dropin.XXXXXX")
if [ "${DROPIN_KEEP:-}" = 1 ]; then
  echo "dropin: work directory $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi
tree=$work/gopath/src/${module%@*}
GO=$GO "$root/hack/fetch-real-tree.sh" "$module" "$tree"
# Module zips keep no file modes; the repository's scripts are executable.
find "$tree" -name '*.sh' -exec chmod +x {} +
if [ -n "${DROPIN_CONFIG:-}" ]; then
  printf '%s\n' "$DROPIN_CONFIG" >"$tree/.gatedcrd.yaml"
  echo "dropin: with .gatedcrd.yaml: $DROPIN_CONFIG"
fi
git -C "$tree" init -q
git -C "$tree" -c user.name=dropin -c user.email=dropin@invalid add -A -f
git -C "$tree" -c user.name=dropin -c user.email=dropin@invalid commit -q -m "$module"
count=$("$root/hack/real-tree.sh" list-generated "$tree" | wc -l)
echo "dropin: $module holds $count generated CRD file(s)"

# clean STEP: the tree must be exactly as committed.
clean() {
  local status
  status=$(git -C "$tree" status --porcelain --ignored)
  if [ -n "$status" ]; then
    echo "dropin: $module: after $1 the tree is not as committed:" >&2
    echo "$status" | head -40 >&2
    git -C "$tree" diff --stat | tail -5 >&2
    exit 1
  fi
}

# extra_env: VAR=value words added to the environment of script.
extra_env=
# script NAME: runs the tree's hack/NAME with our binary; it must exit 0.
script() {
  script_may_fail "$1" || {
    echo "dropin: $module: hack/$1 exited non-zero:" >&2
    tail -40 "$work/$1.out" >&2
    exit 1
  }
}

# script_may_fail NAME: runs the tree's hack/NAME with our binary and
# returns its exit status.
script_may_fail() {
  local name=$1 out=$work/$1.out start status
  start=$(date +%s.%N)
  set +e
  (cd "$tree" && env CODEGEN="$codegen" $extra_env "hack/$name") >"$out" 2>&1
  status=$?
  set -e
  local took
  took=$(echo "$(date +%s.%N) - $start" | bc)
  printf 'dropin: hack/%s: exit %d in %.1f s, %d warning(s)\n' "$name" "$status" "$took" "$(grep -c '^warning:' "$out" || true)"
  return "$status"
}

configured="no configuration"
[ -z "${DROPIN_CONFIG:-}" ] || configured="only this configuration: $DROPIN_CONFIG"
script verify-codegen-crds.sh
clean verify-codegen-crds.sh
grep -h -m1 '^codegen: output of' "$work/verify-codegen-crds.sh.out" || true
if [ "${DROPIN_STEPS:-}" != crds ]; then
  script verify-compatibility.sh
  clean verify-compatibility.sh
fi
"$root/hack/real-tree.sh" remove-generated "$tree"
left=$("$root/hack/real-tree.sh" list-generated "$tree" | wc -l)
[ "$left" -eq 0 ] || { echo "dropin: $left generated file(s) survived the deletion" >&2; exit 1; }
script update-codegen-crds.sh
clean "deleting every generated CRD file and hack/update-codegen-crds.sh"
if [ "${DROPIN_STEPS:-}" = crds ]; then
  echo "dropin: PASS $module: its own CRD scripts with our binary and $configured, $count file(s) regenerated byte for byte"
  exit 0
fi
script verify-deepcopy.sh
clean verify-deepcopy.sh
script verify-swagger-docs.sh
clean verify-swagger-docs.sh
# verify-openapi.sh has codegen write the definitions into verify_openapi/,
# builds the tree's models-schema program from the committed definitions
# to write verify_openapi/openapi.json, and diffs both with the committed
# files. Some commits carry an openapi.json that is stale against their
# own committed definitions (a merge that regenerated one and not the
# other): the script fails there whatever binary runs it, and what codegen
# wrote is still checked, byte for byte.
if ! script_may_fail verify-openapi.sh; then
  defs=generated_openapi/zz_generated.openapi.go
  if cmp -s "$tree/verify_openapi/$defs" "$tree/openapi/$defs" &&
    ! cmp -s "$tree/verify_openapi/openapi.json" "$tree/openapi/openapi.json"; then
    echo "dropin: hack/verify-openapi.sh: exit 1 on this tree with any binary: its committed openapi/openapi.json is stale against its own committed definitions; the definitions codegen wrote are byte-identical"
  else
    echo "dropin: $module: hack/verify-openapi.sh failed:" >&2
    tail -40 "$work/verify-openapi.sh.out" >&2
    exit 1
  fi
fi
# The script builds models-schema into the working directory, and leaves
# verify_openapi/ when it fails; a checkout ignores the program
# (.gitignore), the scratch repository does not: both are the script's.
rm -rf "$tree/models-schema" "$tree/verify_openapi"
clean verify-openapi.sh
extra_env=EXTRA_ARGS=--verify
script update-codegen.sh
extra_env=
clean "a bare codegen --verify (hack/update-codegen.sh)"
gocount=$("$root/hack/real-tree.sh" list-generated-go "$tree" | wc -l)
"$root/hack/real-tree.sh" remove-generated "$tree"
"$root/hack/real-tree.sh" remove-generated-go "$tree"
script update-codegen.sh
clean "deleting every generated file and a bare codegen (hack/update-codegen.sh)"
count=$((count + gocount))
"$root/hack/protobuf-tools.sh" "$tree" "$work"
if [ ! -d "$tree/vendor" ]; then
  "$GO" -C "$tree" mod vendor
  git -C "$tree" add -A -f vendor
  git -C "$tree" -c user.name=dropin -c user.email=dropin@invalid commit -q -m "vendor/, as a checkout has it"
fi
extra_env="GOPATH=$work/gopath GOMODCACHE=$("$GO" env GOMODCACHE) PATH=$work/bin:$PATH GO_TO_PROTOBUF=$work/bin/go-to-protobuf PROTOC_GEN_GOGO=$work/bin/protoc-gen-gogo"
script verify-protobuf.sh
extra_env=
clean verify-protobuf.sh
echo "dropin: PASS $module: its own scripts with our binary and $configured, $count file(s) regenerated byte for byte"
