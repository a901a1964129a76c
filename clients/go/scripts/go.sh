#!/usr/bin/env bash
# Run the go command on this module offline, against Debian's Go packages (golang-go,
# golang-google-grpc-dev, golang-google-protobuf-dev; they live in /usr/share/gocode).
#
# GOPATH mode: Debian's grpc declares module requirements (envoy, udpa, ...) that are not packaged,
# so module mode would need the module proxy; GOPATH mode resolves imports from source trees only.
# The module is linked into a private GOPATH (.gopath/, ignored) at its import path.
#   scripts/go.sh test ./...        scripts/go.sh run ./cmd/randombot -addr 127.0.0.1:50051
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
gopath="$here/.gopath"
link="$gopath/src/github.com/hunters-engine/hunters-engine/clients/go"
mkdir -p "$(dirname "$link")"
ln -sfn "$here" "$link"
export GO111MODULE=off GOFLAGS="" GOPATH="$gopath:${DEBIAN_GOCODE:-/usr/share/gocode}"
cd "$link"
exec go "$@"
