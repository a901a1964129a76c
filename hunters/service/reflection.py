"""Server reflection under both names clients ask for: `grpc.reflection.v1` and `v1alpha`.

grpcio-reflection ships only v1alpha. The v1 protocol has the same messages, field for field, under a
new package name, so the v1alpha servicer answers v1 calls unchanged: the bytes are the same."""

from __future__ import annotations

from collections.abc import Iterable

import grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer

V1 = "grpc.reflection.v1.ServerReflection"
V1ALPHA = reflection.SERVICE_NAME


def enable(server: grpc.aio.Server, service_names: Iterable[str]) -> None:
    """Serve reflection (v1 and v1alpha) listing `service_names` and the reflection services."""
    servicer = ReflectionServicer((*tuple(service_names), V1, V1ALPHA))
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        tuple(grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": handler}) for name in (V1, V1ALPHA))
    )
