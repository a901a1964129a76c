# The hunters gRPC server as a sidecar: non-root (uid/gid 10001), data in the /data volume, health through
# the gRPC health service, listening on IPv4 and IPv6.
#   docker build -t hunters-engine .
#   docker run -p 50051:50051 -v hunters-data:/data hunters-engine
# A bind mount instead of a volume must be writable by uid 10001: `chown 10001:10001 DIR`.
# TLS: mount a certificate and key and set HUNTERS_TLS_CERT and HUNTERS_TLS_KEY; the server and the health
# check both read them (HUNTERS_TLS_SERVER_NAME when the certificate is not for localhost, HUNTERS_TLS_CA
# when a CA signed it). Only a game server should create matches: HUNTERS_CREATE_TOKEN.
#
# Base: pinned by tag (Debian bookworm, Python 3.11). Add its digest (`python:3.11.13-slim-bookworm@sha256:...`)
# where a registry is reachable; the machines this was built on reach none and build on a local stand-in
# (.ci/standin-base.sh). Python packages: pinned by deploy/constraints.txt, for the build environment too.
ARG BASE_IMAGE=python:3.11.13-slim-bookworm

FROM ${BASE_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev binutils \
    && rm -rf /var/lib/apt/lists/*
ENV PIP_CONSTRAINT=/src/deploy/constraints.txt PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
# Build tools and runtime packages first, from pyproject.toml (pinned by the constraints): a change to
# the sources reuses these layers. Everything the server imports goes to /opt/hunters, copied alone into
# the final stage (no wheels, compiler or pip cache there); shared objects lose their debugging symbols.
# The `postgres` extra (psycopg with its bundled libpq) comes too: HUNTERS_DB=postgresql://... runs the
# image as one of several replicas on one database (deploy/compose/replicas.yaml, docs/replicas.md).
COPY deploy/constraints.txt ./deploy/
COPY pyproject.toml ./
RUN python -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb')); \
        open('build.txt', 'w').write('\n'.join(p['build-system']['requires'])); \
        open('run.txt', 'w').write('\n'.join(p['project']['dependencies'] + p['project']['optional-dependencies']['postgres']))" \
    && pip install -r build.txt \
    && pip install --target /opt/hunters -r run.txt \
    && find /opt/hunters -name '*.so' -exec strip --strip-unneeded {} + \
    && rm -rf /opt/hunters/bin  # tqdm's script; the one of hunters comes with its wheel
COPY setup.py README.md ./
COPY proto ./proto
COPY hunters ./hunters
RUN pip wheel --no-build-isolation --no-deps --wheel-dir /wheels . \
    && pip install --target /opt/hunters --no-deps /wheels/*.whl \
    && find /opt/hunters/hunters -name '*.so' -exec strip --strip-unneeded {} +

FROM ${BASE_IMAGE}
# The published name and source of the image (docs/deployment.md#names).
LABEL org.opencontainers.image.title="hunters-engine" \
      org.opencontainers.image.source="https://github.com/hunters-engine/hunters-engine"
# libgomp1: the Carcassonne core is built with OpenMP (the learning batch's threads)
RUN apt-get update && apt-get install -y --no-install-recommends libgomp1 && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 hunters \
    && useradd --system --uid 10001 --gid 10001 --home-dir /data --create-home --shell /usr/sbin/nologin hunters
COPY --from=build /opt/hunters /opt/hunters
# HUNTERS_DB: the SQLite file in the volume, or a postgresql:// URL for replicas on one database.
ENV PYTHONPATH=/opt/hunters PATH=/opt/hunters/bin:$PATH PYTHONUNBUFFERED=1 HUNTERS_DB=/data/hunters.db
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
EXPOSE 50051
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["python", "-m", "hunters.service.healthcheck", "--address", "localhost:50051"]
STOPSIGNAL SIGTERM
# `[::]` binds IPv6 and, dual-stack, IPv4 too (gRPC falls back to IPv4 alone where IPv6 is off).
ENTRYPOINT ["python", "-m", "hunters.cli", "serve", "--host", "[::]", "--port", "50051"]
