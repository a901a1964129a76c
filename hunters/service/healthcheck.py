"""Exit 0 when the server answers SERVING on the gRPC health service (for container health checks).

    python -m hunters.service.healthcheck [--address localhost:50051] [--timeout 2]
                                          [--tls-ca CA.pem] [--tls-server-name NAME]

With TLS on the server (HUNTERS_TLS_CERT set, as in the container), the check speaks TLS too:
`--tls-ca` (default: $HUNTERS_TLS_CA, else the server's own certificate $HUNTERS_TLS_CERT, which is
its CA when self-signed) verifies the server, `--tls-server-name` the name its certificate carries."""

from __future__ import annotations

import argparse
import os
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from hunters.address import DEFAULT_PORT, server_address_argument


def check(
    address: str, timeout: float, service: str = "", ca: bytes | None = None, server_name: str | None = None
) -> bool:
    """True when `address` answers SERVING for `service` within `timeout` seconds."""
    if ca is None:
        channel = grpc.insecure_channel(address)
    else:
        options = [("grpc.ssl_target_name_override", server_name)] if server_name else []
        channel = grpc.secure_channel(address, grpc.ssl_channel_credentials(root_certificates=ca), options=options)
    with channel:
        try:
            resp = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError:
            return False
    serving: bool = resp.status == health_pb2.HealthCheckResponse.SERVING
    return serving


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hunters.service.healthcheck", formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    parser.add_argument(
        "--address",
        type=server_address_argument,
        default=f"localhost:{DEFAULT_PORT}",
        help="HOST, HOST:PORT or [IPv6]:PORT; without a port, the server's default",
    )
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--service", default="", help="service to ask about ('' = the whole server)")
    parser.add_argument(
        "--tls-ca",
        default=os.environ.get("HUNTERS_TLS_CA") or os.environ.get("HUNTERS_TLS_CERT"),
        help="PEM file of the CA that signed the server's certificate: speak TLS",
    )
    parser.add_argument(
        "--tls-server-name",
        default=os.environ.get("HUNTERS_TLS_SERVER_NAME"),
        help="the name the server's certificate carries, when it is not the address's host",
    )
    args = parser.parse_args(argv)
    ca = None
    if args.tls_ca:
        try:
            with open(args.tls_ca, "rb") as fh:
                ca = fh.read()
        except OSError as exc:
            print(f"healthcheck: error: cannot read {args.tls_ca}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0 if check(args.address, args.timeout, args.service, ca, args.tls_server_name) else 1


if __name__ == "__main__":
    sys.exit(main())
