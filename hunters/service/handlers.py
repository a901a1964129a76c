"""Registers servicers from the service descriptors, decoding requests ourselves.

grpcio answers INTERNAL when a request does not decode; a malformed request is the caller's error,
so requests arrive as bytes and are parsed here: a corrupt one is INVALID_ARGUMENT / MALFORMED_REQUEST.
Before parsing, a servicer may refuse a call on its metadata and size alone (`Admission`), so that a
refused call costs no more than reading its headers. Responses may be messages or bytes already
serialized (a retried move's first reply, a watch event shared by every watcher)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

import grpc
from google.protobuf import message, message_factory
from google.protobuf.descriptor import ServiceDescriptor

from .errors import ServiceError, invalid

Admit = Callable[[int, grpc.aio.ServicerContext], None]
"""(request bytes, context) -> None, or a ServiceError raised: the call refused before parsing."""


class Admission(Protocol):
    """A servicer that refuses some calls before their requests are parsed."""

    def admission(self, method: str) -> Admit | None:
        """The check of `method`'s calls (None: none)."""


def _identity(data: bytes) -> bytes:
    return data


def _serialize(response: Any) -> bytes:
    return response if isinstance(response, bytes) else response.SerializeToString()


async def _parse(
    request_class: type[message.Message], data: bytes, context: grpc.aio.ServicerContext
) -> message.Message:
    try:
        return request_class.FromString(data)
    except message.DecodeError:
        status = invalid(
            "MALFORMED_REQUEST", f"the request does not decode as {request_class.DESCRIPTOR.full_name}"
        ).to_status()
        await context.abort(status.code, status.details, status.trailing_metadata)
    raise AssertionError("context.abort returned")  # unreachable: it raises grpc.aio.AbortError


# a servicer method: async, called with (request, context); a coroutine function for a unary method,
# an async generator function for a server-streaming one (called with the requests' async iterator
# for a bidirectional one)
_Method = Callable[[message.Message, grpc.aio.ServicerContext], Any]


async def _parsed(
    request_class: type[message.Message], requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext
) -> AsyncIterator[message.Message]:
    async for data in requests:
        yield await _parse(request_class, data, context)


_StreamMethod = Callable[[AsyncIterator[message.Message], grpc.aio.ServicerContext], Any]


def _decoding_stream(request_class: type[message.Message], method: _StreamMethod) -> Callable[[Any, Any], Any]:
    """A bidirectional method: each request of the stream decoded as it arrives."""

    async def bidi_handler(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        async for item in method(_parsed(request_class, requests, context), context):
            yield item

    return bidi_handler


def _admitted(admit: Admit | None, data: bytes, context: grpc.aio.ServicerContext) -> bool:
    """Whether the call may go on; if not, its status is set (the handler then returns at once,
    which costs grpcio less than an abort's exception)."""
    if admit is None:
        return True
    try:
        admit(len(data), context)
    except ServiceError as error:
        status = error.to_status()
        context.set_code(status.code)
        context.set_details(status.details)
        context.set_trailing_metadata(status.trailing_metadata)
        return False
    return True


def _decoding(
    request_class: type[message.Message], method: _Method, streaming: bool, admit: Admit | None = None
) -> Callable[[bytes, Any], Any]:
    if streaming:

        async def stream_handler(data: bytes, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            if not _admitted(admit, data, context):
                return
            async for item in method(await _parse(request_class, data, context), context):
                yield item

        return stream_handler

    async def unary_handler(data: bytes, context: grpc.aio.ServicerContext) -> Any:
        if not _admitted(admit, data, context):
            return None
        return await method(await _parse(request_class, data, context), context)

    return unary_handler


def add_service(server: grpc.aio.Server, service: ServiceDescriptor, servicer: Any) -> None:
    """Serve every method of `service` (unary, server-streaming or bidirectional) from `servicer`'s
    async methods (each call first past the servicer's `admission` check, when it has one)."""
    admission = getattr(servicer, "admission", None)
    handlers = {}
    for method in service.methods:
        request_class = message_factory.GetMessageClass(method.input_type)
        if method.client_streaming:
            if not method.server_streaming:
                raise NotImplementedError("client-streaming methods are not used by hunters.v1")
            handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                _decoding_stream(request_class, getattr(servicer, method.name)),
                request_deserializer=_identity,
                response_serializer=_serialize,
            )
            continue
        make = grpc.unary_stream_rpc_method_handler if method.server_streaming else grpc.unary_unary_rpc_method_handler
        handlers[method.name] = make(
            _decoding(
                request_class,
                getattr(servicer, method.name),
                method.server_streaming,
                admission(method.name) if admission is not None else None,
            ),
            request_deserializer=_identity,
            response_serializer=_serialize,
        )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service.full_name, handlers),))
