"""Checks on request fields that the games do not see: ids, request ids, page tokens, sizes.

Every check refuses with INVALID_ARGUMENT and a reason before the value is used; errors never echo
more than 64 characters of what the caller sent (`hunters.status.clip`)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import struct

from .errors import invalid

__all__ = ["PageTokens", "game_filter", "match_id", "request_id"]

MAX_ID = 64
MAX_REQUEST_ID = 128
_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_ID}}}\Z")
_REQUEST_ID = re.compile(rf"[\x21-\x7e]{{1,{MAX_REQUEST_ID}}}\Z")  # printable ASCII, no space


def match_id(value: str) -> str:
    """A match id: 1 to 64 characters of [A-Za-z0-9_-]."""
    if not value:
        raise invalid("MATCH_ID_MISSING", "match_id is required")
    if not _ID.match(value):
        raise invalid("BAD_MATCH_ID", f"match_id must be 1 to {MAX_ID} characters of A-Z, a-z, 0-9, '_' and '-'")
    return value


def request_id(value: str) -> str:
    """An idempotency key: empty (none) or 1 to 128 printable ASCII characters without spaces."""
    if value and not _REQUEST_ID.match(value):
        raise invalid(
            "BAD_REQUEST_ID", f"request_id must be at most {MAX_REQUEST_ID} printable ASCII characters, no spaces"
        )
    return value


def game_filter(value: str) -> str:
    """A game id used as a filter: empty or an id-shaped string (whether it is registered does not matter)."""
    if value and not _ID.match(value):
        raise invalid("BAD_GAME", f"game must be at most {MAX_ID} characters of A-Z, a-z, 0-9, '_' and '-'")
    return value


class PageTokens:
    """Opaque page tokens: the last position served, bound to the filter and signed with a server key.

    A token is base64url (no padding) of 8 bytes of position and 16 bytes of HMAC-SHA256 over the
    position and the filter; anything else, or a token made for another filter or server database,
    is BAD_PAGE_TOKEN."""

    _SIZE = 24

    def __init__(self, key: bytes):
        self._key = key

    def _mac(self, position: int, scope: str) -> bytes:
        return hmac.new(self._key, struct.pack(">Q", position) + scope.encode(), hashlib.sha256).digest()[:16]

    def make(self, position: int, scope: str) -> str:
        raw = struct.pack(">Q", position) + self._mac(position, scope)
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")

    def read(self, token: str, scope: str) -> int:
        """The position of a token made by `make` for the same scope (0 for an empty token)."""
        if not token:
            return 0
        bad = invalid("BAD_PAGE_TOKEN", "page_token was not made by this server for this query")
        if len(token) != 32 or not re.fullmatch(r"[A-Za-z0-9_-]{32}", token):
            raise bad
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise bad from None
        if len(raw) != self._SIZE:
            raise bad
        position: int = struct.unpack(">Q", raw[:8])[0]
        if not hmac.compare_digest(raw[8:], self._mac(position, scope)):
            raise bad
        return position
