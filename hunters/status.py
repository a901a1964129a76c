"""Errors on the wire, shared by the server and the Python client: a gRPC status code plus a
machine-readable reason, sent as google.rpc.Status with an ErrorInfo detail (domain "hunters.v1")."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from hunters.errors import IllegalMoveError

__all__ = ["DOMAIN", "ServiceError", "clip", "error_info"]

DOMAIN = "hunters.v1"
MAX_ECHO = 64  # characters of anything the caller sent that an error may repeat
MAX_MESSAGE = 512  # characters of an error message

# Engine reasons that say the request itself is malformed, whatever the state of the game.
_DETAILS_KEY = "grpc-status-details-bin"  # the trailer carrying the google.rpc.Status
_ARGUMENT_REASONS = {"MALFORMED", "BAD_ROTATION", "UNKNOWN_ZONE", "UNKNOWN_SPACE"}


class ServiceError(Exception):
    """An error sent to (or received from) the caller: `code` (grpc.StatusCode), `reason`, message,
    metadata (ErrorInfo.metadata, string values). Its text is the one line every client of the
    project writes for an error: ``CODE REASON: message``, e.g. ``NOT_FOUND MATCH_NOT_FOUND: no
    match 'x'``."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str, **metadata: object):
        message = clip(message, MAX_MESSAGE)
        super().__init__(f"{code.name} {reason}: {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.metadata = {k: clip(v) for k, v in metadata.items()}

    @classmethod
    def from_illegal(cls, exc: IllegalMoveError, **metadata: object) -> ServiceError:
        code = (
            grpc.StatusCode.INVALID_ARGUMENT if exc.reason in _ARGUMENT_REASONS else grpc.StatusCode.FAILED_PRECONDITION
        )
        return cls(code, exc.reason, exc.message, **metadata)

    def to_status(self) -> grpc.Status:
        info = error_details_pb2.ErrorInfo(reason=self.reason, domain=DOMAIN, metadata=self.metadata)
        detail = any_pb2.Any()
        detail.Pack(info)
        status = status_pb2.Status(code=getattr(code_pb2, self.code.name), message=self.message, details=[detail])
        return rpc_status.to_status(status)


def clip(value: object, limit: int = MAX_ECHO) -> str:
    """`value` as text of at most `limit` characters (an ellipsis marks a cut): errors never echo
    unbounded input back (a long id would otherwise overflow the trailer and come back as
    RESOURCE_EXHAUSTED)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def error_info(err: grpc.RpcError) -> tuple[str, dict[str, str]]:
    """The (reason, metadata) of a received error's ErrorInfo, or ("", {})."""
    if isinstance(err, grpc.Call):
        status = rpc_status.from_call(err)
    else:  # grpc.aio's errors are no grpc.Call: the status detail is read from their trailers
        trailers = getattr(err, "trailing_metadata", lambda: None)() or ()
        found = [value for key, value in trailers if key == _DETAILS_KEY]
        status = status_pb2.Status.FromString(found[0]) if found else None
    if status is not None:
        for detail in status.details:
            if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                detail.Unpack(info)
                return info.reason, dict(info.metadata)
    return "", {}
