"""Invites: a link that gives an open seat of a match to a friend without the seat's token in it.

An invite is the seat's token sealed for this server: encrypted with a keystream of HMAC-SHA256 over
(match, seat, expiry) and authenticated with a second HMAC, both keyed from the database's secret,
so every replica on one database opens it and nobody else can read or forge it. The play page puts
it in the link's fragment (``/play/<id>#invite=...``), which browsers never send to a server, so it
reaches no request line, log or Referer; the page exchanges it once (POST ``/play/<id>/join``) for
the seat's cookie. It expires after `LIFETIME` and is refused once used on the server that took it
(remembered in memory until it expires: a restart within its lifetime, or another replica, would
accept it once more).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
import time
from collections.abc import Callable

import grpc

from .errors import ServiceError

__all__ = ["LIFETIME", "Invites"]

LIFETIME = 2 * 24 * 3600
"""Seconds an invite can be used: long enough to send it to a friend, short if it leaks."""

_TOKEN_BYTES = 32  # a seat token is 64 hex digits
_MAC_BYTES = 16
_HEAD = struct.Struct(">BI")  # seat, expiry (Unix seconds)
_SIZE = _HEAD.size + _TOKEN_BYTES + _MAC_BYTES


def _bad(message: str) -> ServiceError:
    return ServiceError(grpc.StatusCode.PERMISSION_DENIED, "BAD_INVITE", message)


class Invites:
    """Seals seat tokens into invites and opens them, once each."""

    def __init__(self, secret: bytes, clock: Callable[[], float] = time.time):
        self._seal = hmac.new(secret, b"hunters play invite: keystream", hashlib.sha256).digest()
        self._sign = hmac.new(secret, b"hunters play invite: mac", hashlib.sha256).digest()
        self._clock = clock
        self._used: dict[bytes, float] = {}  # the MAC of each invite taken here -> when it expires

    def _stream(self, match_id: str, head: bytes) -> bytes:
        return hmac.new(self._seal, match_id.encode() + head, hashlib.sha256).digest()

    def _mac(self, match_id: str, body: bytes) -> bytes:
        return hmac.new(self._sign, match_id.encode() + body, hashlib.sha256).digest()[:_MAC_BYTES]

    def make(self, match_id: str, seat: int, token: str) -> str:
        """The invite of seat `seat` of a match, whose token is `token`."""
        head = _HEAD.pack(seat, int(self._clock()) + LIFETIME)
        sealed = bytes(a ^ b for a, b in zip(bytes.fromhex(token), self._stream(match_id, head), strict=True))
        body = head + sealed
        return base64.urlsafe_b64encode(body + self._mac(match_id, body)).rstrip(b"=").decode("ascii")

    def take(self, match_id: str, invite: str) -> tuple[int, str]:
        """(seat, token) of an invite made for this match, which is then used up; PERMISSION_DENIED
        / BAD_INVITE if it is not one, has expired or was used already."""
        try:
            raw = base64.urlsafe_b64decode(invite + "=" * (-len(invite) % 4))
        except (binascii.Error, ValueError):
            raise _bad("that is not an invite of this server") from None
        if len(raw) != _SIZE:
            raise _bad("that is not an invite of this server")
        body, mac = raw[:-_MAC_BYTES], raw[-_MAC_BYTES:]
        if not hmac.compare_digest(mac, self._mac(match_id, body)):
            raise _bad("that invite was not made by this server for this match")
        head, sealed = body[: _HEAD.size], body[_HEAD.size :]
        seat, expires = _HEAD.unpack(head)
        now = self._clock()
        if now > expires:
            raise _bad("that invite has expired: ask for the seat's token or a new link")
        for key, until in list(self._used.items()):  # forget the expired ones
            if until < now:
                del self._used[key]
        if mac in self._used:
            raise _bad("that invite was used already: the seat is held by the browser that took it")
        self._used[mac] = expires
        token = bytes(a ^ b for a, b in zip(sealed, self._stream(match_id, head), strict=True)).hex()
        return seat, token
