#!/usr/bin/env bash
# Regenerates zz_generated.deepcopy.go for the API packages with upstream
# controller-gen's object generator. Usage: hack/update-deepcopy.sh <controller-gen>
set -euo pipefail
controller_gen=${1:?path to controller-gen}
cd "$(dirname "$0")/.."
"$controller_gen" object paths=./example/...
