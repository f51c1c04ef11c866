#!/usr/bin/env bash
# Checks, on real API trees fetched as Go modules through the module proxy,
# that the variant annotations the merge writes and the readers' decoding of
# them (features/crdvariant; apitest's reading) agree for every generated
# CRD file. The modules are only read, in the module cache.
#
# Usage: hack/conformance-variants.sh [MODULE@VERSION...]
#   default: the current openshift/api tree and one of the pre-version era
# Environment: GO (default go).
set -euo pipefail
GO=${GO:-go}
export GO
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
  set -- github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9 \
    github.com/openshift/api@v0.0.0-20260114133223-6ab113cb7368
fi
trees=()
for module in "$@"; do
  trees+=("$(hack/module-dir.sh "$module")")
done
export VARIANT_REAL_TREES="${trees[*]}"
"$GO" -C tools test -count=1 -run '^TestAnnotationsAgreeWithTheMergeRealTrees$' -v ./pkg/manifestmerge
"$GO" -C apitest test -count=1 -run '^TestReadingAgreesWithTheMergeRealTrees$' -v ./suite
