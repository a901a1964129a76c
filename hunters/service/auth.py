"""Seat and admin tokens: random secrets handed out once, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

import grpc

from .errors import ServiceError

_METADATA_KEY = "authorization"
_SCHEME = "bearer "


def new_token() -> str:
    """256 random bits as hex: never starting with "-", so a command line (`hunters play --token T`,
    an arena's `cmd:` bot) cannot mistake a token for an option, as base64url tokens were one in 64."""
    return secrets.token_hex(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_from_metadata(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The bearer token of the call metadata (`authorization: Bearer <token>`), if any."""
    for key, value in metadata or ():
        if key.lower() == _METADATA_KEY and isinstance(value, str) and value.lower().startswith(_SCHEME):
            return value[len(_SCHEME) :].strip()
    return None


def bearer(token: str) -> tuple[tuple[str, str]]:
    """Call metadata carrying a token."""
    return ((_METADATA_KEY, f"Bearer {token}"),)


def require_token(token: str | None) -> str:
    if not token:
        raise ServiceError(
            grpc.StatusCode.UNAUTHENTICATED,
            "MISSING_TOKEN",
            "this call needs a token: metadata 'authorization: Bearer <token>'",
        )
    return token


def matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored_hash)
