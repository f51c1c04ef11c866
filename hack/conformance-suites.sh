#!/usr/bin/env bash
# Runs the API test suites of a real API repository, fetched as a Go module
# through the module proxy, against its own committed CRD manifests, on
# the Kubernetes version it targets, and requires every test to pass.
# The module is only read, in the module cache; nothing of it is copied
# here.
#
# Usage: hack/conformance-suites.sh MODULE@VERSION KUBE_VERSION [apitest flags]
#   e.g. hack/conformance-suites.sh github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9 1.32
# Environment: GO (default go); GATEDCRD_CACHE (where API server programs
# are cached, see apitest/kubeversion).
set -euo pipefail
GO=${GO:-go}
export GO
if [ $# -lt 2 ]; then
  echo "usage: $0 MODULE@VERSION KUBE_VERSION [apitest flags]" >&2
  exit 2
fi
module=$1
kube_version=$2
shift 2
cd "$(dirname "$0")/.."

tree=$(hack/module-dir.sh "$module")

bin=$(mktemp -d "${TMPDIR:-/tmp}/gatedcrd-conformance.XXXXXX")
trap 'rm -rf "$bin"' EXIT
"$GO" -C apitest build -o "$bin/apitest" ./cmd/apitest
"$bin/apitest" --base-dir "$tree" --kube-version "$kube_version" --skip hack/conformance-suites-skip.yaml "$@"
