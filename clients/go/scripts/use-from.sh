#!/usr/bin/env bash
# Use this client from your own Go module, offline, with Debian's Go packages (golang-go,
# golang-google-grpc-dev, golang-google-protobuf-dev, golang-github-golang-protobuf-1-5-dev):
#
#   clients/go/scripts/use-from.sh DIR     # DIR: your module's folder (made if missing)
#   DIR/go.sh build ./...                  # or: DIR/go.sh run . ARGS, DIR/go.sh test ./...
#
# What it writes into DIR:
#   .hunters/clients/go   a copy of this client (module github.com/hunters-engine/hunters-engine/clients/go), without tests
#   .gopath/              a private GOPATH: the client and DIR linked at their import paths
#   go.sh                 runs the go command in GOPATH mode on .gopath and /usr/share/gocode
#   go.mod                only when DIR has none: `module example.com/<name of DIR>`, requiring the
#                         client, replaced by the copy (what module mode uses once it has a proxy)
# Your code imports "github.com/hunters-engine/hunters-engine/clients/go/hunters" (and .../gen/hunters/v1 for the
# messages). Run it again to refresh the copy after the client changed.
#
# Why GOPATH mode: Debian's grpc 1.33 declares module requirements (envoy, udpa, ...) that Debian does
# not package, so module mode cannot resolve its graph without the module proxy. With the proxy, plain
# module mode works with the go.mod written here: `go mod tidy && go build ./...` (not checkable offline).
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 DIR" >&2; exit 2; }
here="$(cd "$(dirname "$0")/.." && pwd)"
client_path="github.com/hunters-engine/hunters-engine/clients/go"
mkdir -p "$1"
dir="$(cd "$1" && pwd)"
gocode="${DEBIAN_GOCODE:-/usr/share/gocode}"
[[ -d "$gocode/src/google.golang.org/grpc" ]] || {
  echo "no grpc under $gocode: apt-get install golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev" >&2
  exit 1
}

# the copy of the client: the library and the generated code, no tests, no tools
copy="$dir/.hunters/clients/go"
rm -rf "$copy"
mkdir -p "$copy"
cp "$here/go.mod" "$copy/"
cp -r "$here/hunters" "$here/gen" "$copy/"
find "$copy" -name '*_test.go' -delete

if [[ ! -f "$dir/go.mod" ]]; then
  name="$(basename "$dir" | tr -c 'A-Za-z0-9._\n-' '-')"
  cat >"$dir/go.mod" <<MOD
module example.com/$name

go 1.19

require $client_path v0.0.0

replace $client_path => ./.hunters/clients/go
MOD
fi
module="$(awk '$1 == "module" {print $2; exit}' "$dir/go.mod")"
[[ -n "$module" ]] || { echo "$dir/go.mod names no module" >&2; exit 1; }

gopath="$dir/.gopath"
rm -rf "$gopath"
mkdir -p "$(dirname "$gopath/src/$client_path")" "$(dirname "$gopath/src/$module")"
ln -sfn "$copy" "$gopath/src/$client_path"
ln -sfn "$dir" "$gopath/src/$module"

cat >"$dir/go.sh" <<SH
#!/usr/bin/env bash
# The go command for this module, offline in GOPATH mode (written by hunters' clients/go/scripts/use-from.sh).
set -euo pipefail
here="\$(cd "\$(dirname "\$0")" && pwd)"
export GO111MODULE=off GOFLAGS="" GOPATH="\$here/.gopath:\${DEBIAN_GOCODE:-$gocode}"
cd "\$here/.gopath/src/$module"
exec go "\$@"
SH
chmod +x "$dir/go.sh"
echo "$dir/go.sh"
