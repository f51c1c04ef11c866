#!/usr/bin/env bash
# Runs `codegen compat` on two real API trees fetched as Go modules through
# the module proxy (test input only: nothing of them is copied into this
# repository) and checks the summary against
# tools/pkg/compat/testdata/real-summary.json. compat only reads files, so
# the trees are used where `go mod download` puts them.
#
# Usage: hack/conformance-compat.sh [-update]
#   -update  rewrite the expected summary instead of checking it
# Environment: GO (default go), COMPAT_OLD_MODULE, COMPAT_NEW_MODULE.
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/.."
old_module=${COMPAT_OLD_MODULE:-github.com/openshift/api@v0.0.0-20260302174620-dcac36b908db}
new_module=${COMPAT_NEW_MODULE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}

module_dir() {
  (cd "${TMPDIR:-/tmp}" && "$GO" mod download -json "$1" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
}
old=$(module_dir "$old_module")
new=$(module_dir "$new_module")
if [ ! -d "$old" ] || [ ! -d "$new" ]; then
  echo "$0: go mod download did not report both module directories" >&2
  exit 1
fi

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
if [ "${1:-}" = "-update" ]; then
  update=(-args -update-real-summary)
fi
COMPAT_OLD_TREE=$old COMPAT_NEW_TREE=$new \
  "$GO" -C tools test -count=1 -run '^TestRealTrees$' ./pkg/compat "${update[@]}"
