#!/usr/bin/env bash
# Regenerate gen/hunters/v1 from the repository's proto/ with protoc, protoc-gen-go and
# protoc-gen-go-grpc (Debian: protobuf-compiler protoc-gen-go protoc-gen-go-grpc). Also run by
# `scripts/go.sh generate ./...` (the go:generate line in hunters/wire.go). The import path is the
# protos' go_package, pinned here with M options too.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
proto="$(cd "$here/../../proto" && pwd)"
pkg="github.com/hunters-engine/hunters-engine/clients/go/gen/hunters/v1;huntersv1"
files=()
maps=()
for f in "$proto"/hunters/v1/*.proto; do
  rel="hunters/v1/$(basename "$f")"
  files+=("$rel")
  maps+=("M$rel=$pkg")
done
# The google.rpc protos (vendored under proto/) map onto the packages Go already has.
maps+=("Mgoogle/rpc/status.proto=google.golang.org/genproto/googleapis/rpc/status"
       "Mgoogle/rpc/error_details.proto=google.golang.org/genproto/googleapis/rpc/errdetails"
       "Mgoogle/rpc/code.proto=google.golang.org/genproto/googleapis/rpc/code")
go_opts=(); grpc_opts=()
for m in "${maps[@]}"; do go_opts+=("--go_opt=$m"); grpc_opts+=("--go-grpc_opt=$m"); done
out="$here/gen"
rm -f "$out"/hunters/v1/*.pb.go
mkdir -p "$out"
protoc -I "$proto" -I /usr/include \
  --go_out="$out" --go_opt=paths=source_relative "${go_opts[@]}" \
  --go-grpc_out="$out" --go-grpc_opt=paths=source_relative "${grpc_opts[@]}" \
  "${files[@]}"
