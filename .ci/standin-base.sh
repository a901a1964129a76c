#!/usr/bin/env bash
# The Dockerfile's base image: pulled from its registry when that answers (HUNTERS_CI_NO_PULL=1 skips
# the attempt), else a local stand-in: a minimal Debian bookworm (the distribution of the official
# python:3.11-slim-bookworm) with python3.11 and pip, imported under the base's tag and labelled
# org.hunters.base-standin. Its tarball is cached (HUNTERS_CI_CACHE, default /var/cache/hunters-ci): a
# later run on the same machine only re-imports it. Does nothing if the tag is already in the daemon.
set -euo pipefail
TAG="${1:?usage: standin-base.sh IMAGE_TAG}"
CACHE="${HUNTERS_CI_CACHE:-/var/cache/hunters-ci}"
TARBALL="$CACHE/standin-$(echo "$TAG" | tr '/:' '__').tar"
if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "base $TAG: present in the daemon"
  exit 0
fi
if [ -z "${HUNTERS_CI_NO_PULL:-}" ] && timeout 300 docker pull -q "$TAG" >/dev/null 2>&1; then
  echo "base $TAG: pulled from the registry"
  exit 0
fi
mkdir -p "$CACHE"
if [ ! -s "$TARBALL" ]; then
  command -v debootstrap >/dev/null || { echo "debootstrap missing" >&2; exit 1; }
  ROOT="$(mktemp -d "$CACHE/rootfs.XXXXXX")"
  trap 'rm -rf "$ROOT"' EXIT
  echo "base $TAG: debootstrapping a bookworm stand-in into $ROOT"
  debootstrap --variant=minbase \
    --include=python3,python3-pip,python3-dev,python-is-python3,ca-certificates \
    bookworm "$ROOT" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
  # pip may install system-wide, as in the official image (PEP 668 marker removed).
  rm -f "$ROOT"/usr/lib/python3*/EXTERNALLY-MANAGED
  # Outbound HTTPS on these machines may pass a re-signing proxy: trust what the host trusts.
  cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/*
  tar -C "$ROOT" -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
fi
echo "base $TAG: importing the local stand-in $TARBALL"
# The label marks it (and every image built on it) as the stand-in: the container test reports it.
docker import --change 'CMD ["python3"]' --change 'ENV LANG=C.UTF-8' \
  --change "LABEL org.hunters.base-standin=debootstrap-bookworm" "$TARBALL" "$TAG" >/dev/null
