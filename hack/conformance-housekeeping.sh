#!/usr/bin/env bash
# Runs the repository housekeeping commands on a real API tree, fetched from
# the module proxy at test time, with the configuration we wrote for it
# (hack/conformance/openshift-api.gatedcrd.yaml):
#
#   - codegen compatibility --verify: every compatibility line is current;
#   - codegen payload-crds --verify: the glob lists select exactly the
#     committed payload-manifests/crds/, and rebuilding that directory from
#     nothing reproduces it byte for byte;
#   - codegen crd-manifest-merge --verify: the merge reproduces the committed
#     manifests, and every one of them carries the required annotations.
#
# Usage: hack/conformance-housekeeping.sh [CODEGEN]
# Environment: GO (default go), REAL_TREE (module@version to fetch).
set -euo pipefail
GO=${GO:-go}
root=$(cd "$(dirname "$0")/.." && pwd)
codegen=${1:-$root/bin/codegen}
module=${REAL_TREE:-github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
GO=$GO "$root/hack/fetch-real-tree.sh" "$module" "$tree"
cp "$root/hack/conformance/openshift-api.gatedcrd.yaml" "$tree/.gatedcrd.yaml"

step() { echo "== $*"; }

step "compatibility --verify on $module"
"$codegen" compatibility --verify --base-dir "$tree"

step "payload-crds --verify on $module"
"$codegen" payload-crds --verify --base-dir "$tree"

step "payload-crds from an empty payload directory reproduces the committed one"
cp -r "$tree/payload-manifests/crds" "$work/committed-crds"
rm -rf "$tree/payload-manifests/crds"
"$codegen" payload-crds -q --base-dir "$tree"
diff -r "$work/committed-crds" "$tree/payload-manifests/crds"

step "crd-manifest-merge --verify (with the required-annotation check) on $module"
"$codegen" crd-manifest-merge --verify -q --base-dir "$tree"

echo "conformance-housekeeping: all checks passed on $module"
