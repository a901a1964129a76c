"""Exit 0 when the server answers SERVING on the gRPC health service (for container health checks).

    python -m hunters.service.healthcheck [--address localhost:50051] [--timeout 2]
"""
from __future__ import annotations

import argparse
import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def check(address: str, timeout: float, service: str = "") -> bool:
    with grpc.insecure_channel(address) as channel:
        try:
            resp = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service),
                                                             timeout=timeout)
        except grpc.RpcError:
            return False
    return resp.status == health_pb2.HealthCheckResponse.SERVING


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hunters.service.healthcheck")
    parser.add_argument("--address", default="localhost:50051")
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args(argv)
    return 0 if check(args.address, args.timeout) else 1


if __name__ == "__main__":
    sys.exit(main())
