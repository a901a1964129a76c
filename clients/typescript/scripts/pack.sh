#!/usr/bin/env bash
# Build the npm package in a temporary copy of this folder and put the tarball in OUTDIR (default: the
# current directory); prints the tarball's path. The checkout gets no node_modules/ or dist/.
#   scripts/pack.sh /tmp/out   ->  /tmp/out/hunters-engine-client-0.1.0.tgz
# Then, in any project: npm install /tmp/out/hunters-engine-client-0.1.0.tgz
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "${1:-.}" && cd "${1:-.}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/hunters-ts-pack.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$here/src" "$here/package.json" "$here/package-lock.json" "$here/tsconfig.json" \
  "$here/tsconfig.build.json" "$here/README.md" "$work/"
cd "$work"
# --ignore-scripts: buf's install script is for `npm run generate`, not needed to build
npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2
npm run --silent build:package >&2
name="$(npm pack --ignore-scripts --silent --pack-destination "$out" | tail -n 1)"
echo "$out/$name"
