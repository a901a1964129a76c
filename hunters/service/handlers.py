"""Registers servicers from the service descriptors, decoding requests ourselves.

grpcio answers INTERNAL when a request does not decode; a malformed request is the caller's error,
so requests arrive as bytes and are parsed here: a corrupt one is INVALID_ARGUMENT / MALFORMED_REQUEST."""
from __future__ import annotations

from typing import Any, Callable

import grpc
from google.protobuf import message, message_factory
from google.protobuf.descriptor import ServiceDescriptor

from .errors import invalid


def _identity(data: bytes) -> bytes:
    return data


def _decoding(request_class: type, method: Callable, streaming: bool) -> Callable:
    def parse(data: bytes, context: grpc.ServicerContext) -> Any:
        try:
            return request_class.FromString(data)
        except message.DecodeError:
            context.abort_with_status(invalid("MALFORMED_REQUEST", "the request does not decode as "
                                              f"{request_class.DESCRIPTOR.full_name}").to_status())

    if streaming:
        def stream_handler(data, context):
            yield from method(parse(data, context), context)
        return stream_handler

    def unary_handler(data, context):
        return method(parse(data, context), context)
    return unary_handler


def add_service(server: grpc.Server, service: ServiceDescriptor, servicer: Any) -> None:
    """Serve every method of `service` (unary or server-streaming) from `servicer`'s methods."""
    handlers = {}
    for method in service.methods:
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        if method.client_streaming:
            raise NotImplementedError("client-streaming methods are not used by hunters.v1")
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(_decoding(request_class, getattr(servicer, method.name), method.server_streaming),
                                     request_deserializer=_identity,
                                     response_serializer=response_class.SerializeToString)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
