"""Service errors: a gRPC status code plus a machine-readable reason, sent as google.rpc.Status
with an ErrorInfo detail (domain "hunters.v1"). The type lives in `hunters.status`, shared with
the client; errors never echo more than 64 characters of any value the caller sent (`clip`)."""

from __future__ import annotations

import grpc

from hunters.status import DOMAIN, ServiceError, clip, error_info

__all__ = ["DOMAIN", "ServiceError", "clip", "error_info", "invalid", "not_found"]


def invalid(reason: str, message: str, **metadata: object) -> ServiceError:
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, reason, message, **metadata)


def not_found(match_id: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND", f"no match {clip(match_id)!r}", match_id=match_id)
