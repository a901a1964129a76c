# The hunters gRPC server as a sidecar: non-root, data in a volume, health through the gRPC health service.
#   docker build -t hunters .
#   docker run -p 50051:50051 -v hunters-data:/data hunters
# TLS: mount a certificate and key and set HUNTERS_TLS_CERT and HUNTERS_TLS_KEY; the server and the health
# check both read them (HUNTERS_TLS_SERVER_NAME when the certificate is not for localhost, HUNTERS_TLS_CA
# when a CA signed it). Only a game server should create matches: HUNTERS_CREATE_TOKEN.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY proto ./proto
COPY hunters ./hunters
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --create-home hunters
USER hunters
WORKDIR /data
VOLUME ["/data"]
EXPOSE 50051
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["python", "-m", "hunters.service.healthcheck", "--address", "localhost:50051"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["hunters", "serve", "--host", "0.0.0.0", "--port", "50051", "--db", "/data/hunters.db"]
