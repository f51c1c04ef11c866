#!/usr/bin/env bash
# Prepares what hack/verify-protobuf.sh of an openshift/api tree from
# before August 2026 needs besides the tree. Those scripts run no codegen:
# they call protoc (they insist on a 23.x release), go-to-protobuf and
# protoc-gen-gogo (built from the tree's tools/ module unless
# GO_TO_PROTOBUF and PROTOC_GEN_GOGO name them) and goimports, and they
# import gogo.proto from tools/vendor. A module zip has no tools/ module
# and Debian ships protoc 3.21, so this script gathers the same programs
# from the registries CI reaches:
#
#  - protoc 23.4 from the npm package "protoc", which carries Google's
#    release binaries and their include/ directory;
#  - go-to-protobuf and protoc-gen-gogo of k8s.io/code-generator at the
#    release of the tree's k8s.io/apimachinery (the reference's tools/
#    module moves both together);
#  - goimports of the golang.org/x/tools release our tools module pins;
#  - gogo.proto of the github.com/gogo/protobuf release our tools module
#    pins (its last release, 1.3.2, since 2020), placed below
#    DIR/gopath/src, one of the directories the scripts pass to protoc.
#
# Usage: hack/protobuf-tools.sh TREE DIR
# Afterwards DIR/bin holds protoc, go-to-protobuf, protoc-gen-gogo and
# goimports. Environment: GO (default go), NPM (default npm).
set -euo pipefail
GO=${GO:-go}
NPM=${NPM:-npm}
if [ $# -ne 2 ]; then
  echo "usage: $0 TREE DIR" >&2
  exit 2
fi
tree=$1
dir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/bin" "$dir/protoc"

# required GOMOD MODULE: the version GOMOD requires (read, not resolved:
# go list could rewrite the tree's go.sum).
required() {
  awk -v m="$2" '$1 == m { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$1"
}

if [ ! -x "$dir/protoc/bin/protoc" ]; then
  (cd "$dir/protoc" && "$NPM" pack --silent protoc@23.4.0 >/dev/null)
  tar -xzf "$dir/protoc/protoc-23.4.0.tgz" -C "$dir/protoc"
  mkdir -p "$dir/protoc/bin"
  cp "$dir/protoc/package/bin/protoc-linux-x86_64" "$dir/protoc/bin/protoc"
  chmod +x "$dir/protoc/bin/protoc"
  # protoc finds the well-known types in ../include beside its binary.
  cp -r "$dir/protoc/package/include" "$dir/protoc/include"
fi
ln -sf "$dir/protoc/bin/protoc" "$dir/bin/protoc"

kube=$(required "$tree/go.mod" k8s.io/apimachinery)
tools=$(required "$root/tools/go.mod" golang.org/x/tools)
GOBIN="$dir/bin" GOFLAGS=-modcacherw "$GO" install \
  "k8s.io/code-generator/cmd/go-to-protobuf@$kube" \
  "k8s.io/code-generator/cmd/go-to-protobuf/protoc-gen-gogo@$kube"
GOBIN="$dir/bin" GOFLAGS=-modcacherw "$GO" install "golang.org/x/tools/cmd/goimports@$tools"

gogo=$(required "$root/tools/go.mod" github.com/gogo/protobuf)
gogodir=$(GO="$GO" GOFLAGS=-modcacherw "$root/hack/module-dir.sh" "github.com/gogo/protobuf@$gogo")
mkdir -p "$dir/gopath/src/github.com/gogo/protobuf/gogoproto"
cp "$gogodir/gogoproto/gogo.proto" "$dir/gopath/src/github.com/gogo/protobuf/gogoproto/gogo.proto"
echo "protobuf-tools: protoc $("$dir/bin/protoc" --version | awk '{print $2}'), go-to-protobuf and protoc-gen-gogo $kube, goimports $tools, gogo.proto $gogo"
