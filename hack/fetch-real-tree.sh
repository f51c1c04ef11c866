#!/usr/bin/env bash
# Copies a real API repository, fetched as a Go module through the module
# proxy, into a writable directory, ready for codegen: the tree's own module
# dependencies are downloaded too, so that its Go packages load.
#
# The copy is test input only; nothing of it is ever committed here.
#
# Usage: hack/fetch-real-tree.sh MODULE@VERSION DEST
#   e.g. hack/fetch-real-tree.sh github.com/openshift/api@v0.0.0-20260511191110-9b69e5fa27e9 /tmp/osapi
# DEST must not exist yet. Environment: GO (default go).
set -euo pipefail
GO=${GO:-go}
if [ $# -ne 2 ]; then
  echo "usage: $0 MODULE@VERSION DEST" >&2
  exit 2
fi
module=$1
dest=$2
if [ -e "$dest" ]; then
  echo "$0: $dest already exists" >&2
  exit 2
fi

dir=$(GO="$GO" "$(dirname "$0")/module-dir.sh" "$module")
mkdir -p "$(dirname "$dest")"
cp -r "$dir" "$dest"
# The module cache is read-only; the copy must be writable for codegen.
chmod -R u+w "$dest"
"$GO" -C "$dest" mod download
