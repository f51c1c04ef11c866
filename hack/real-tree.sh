#!/usr/bin/env bash
# The real API tree of the conformance test and the benchmark, prepared the
# same way for both (test input only; nothing of it is ever committed here).
#
# Usage:
#   hack/real-tree.sh fetch MODULE@VERSION DEST
#       copy the module into DEST (hack/fetch-real-tree.sh) and opt it in
#       to CRD validation errors with a .gatedcrd.yaml: its CRDs target
#       Kubernetes 1.32 (the release its CI runs on), so they are validated
#       as 1.32 does (the drop-in test, hack/dropin.sh, adds nothing);
#   hack/real-tree.sh list-generated DIR
#       print the generated CRD files below DIR, relative, sorted: each
#       zz_generated.featuregated-crd-manifests/ directory's files, each
#       zz_generated.featuregated-crd-manifests.yaml and each
#       zz_generated.crd-manifests/*.crd.yaml;
#   hack/real-tree.sh remove-generated DIR
#       delete those files (and the partial manifest directories), so that
#       codegen regenerates them from scratch;
#   hack/real-tree.sh list-generated-go DIR, remove-generated-go DIR
#       the same for the files of the other generators of a bare codegen:
#       zz_generated.deepcopy.go, zz_generated.swagger_doc_generated.go,
#       zz_generated.model_name.go and
#       openapi/generated_openapi/zz_generated.openapi.go (vendor/ aside).
# Environment: GO (default go).
set -euo pipefail
GO=${GO:-go}
here=$(cd "$(dirname "$0")" && pwd)

usage() {
  echo "usage: $0 fetch MODULE@VERSION DEST | list-generated DIR | remove-generated DIR" >&2
  exit 2
}

# go_outputs lists the Go generators' files below the working directory.
go_outputs() {
  find . -path ./vendor -prune -o -type f \( -name zz_generated.deepcopy.go \
    -o -name zz_generated.swagger_doc_generated.go -o -name zz_generated.model_name.go \
    -o -path ./openapi/generated_openapi/zz_generated.openapi.go \) -print
}

case "${1:-} $#" in
"fetch 3")
  GO=$GO "$here/fetch-real-tree.sh" "$2" "$3"
  printf 'kubeVersion: "1.32"\n' >"$3/.gatedcrd.yaml"
  ;;
"list-generated 2")
  (cd "$2" && find . -type f \( -path '*/zz_generated.featuregated-crd-manifests/*' \
    -o -name zz_generated.featuregated-crd-manifests.yaml \
    -o -path '*/zz_generated.crd-manifests/*.crd.yaml' \) | sed 's|^\./||' | LC_ALL=C sort)
  ;;
"remove-generated 2")
  (cd "$2" &&
    find . -type d -name zz_generated.featuregated-crd-manifests -prune -exec rm -rf {} + &&
    find . -type f \( -name zz_generated.featuregated-crd-manifests.yaml -o -path '*/zz_generated.crd-manifests/*.crd.yaml' \) -delete)
  ;;
"list-generated-go 2")
  (cd "$2" && go_outputs | sed 's|^\./||' | LC_ALL=C sort)
  ;;
"remove-generated-go 2")
  (cd "$2" && go_outputs | xargs -r rm -f)
  ;;
*)
  usage
  ;;
esac
