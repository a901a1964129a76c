"""The web side's limits against slow and hostile clients: how many requests are in progress, by
kind (page loads, writes, event streams: each kind has its own caps, so that streams or slow writes
never take a page load's room), server-wide and per host (`hosts.host_key`); and how a write's body
is read: its declared size refused at once when too large, the whole of it within a deadline, its
JSON nested no deeper than a bound. Refusals are cheap: decided on the headers, before any reading.

aiohttp bounds the request line and headers, closes idle connections, stops reading a body past the
application's `client_max_size` and lingers briefly over an unread body before closing. It has no
deadline for a body: `read_json` sets one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from array import array
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from aiohttp import web

from .hosts import host_key

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

PAGES, WRITES, STREAMS = "page", "write", "stream"
ACCEPT_QUIET = 1.5  # seconds without a failed accept (asyncio retries every second) that end an episode
log = logging.getLogger("hunters.service.web")


@dataclass(frozen=True)
class WebLimits:
    """The web side's limits (docs/pictures.md#limits)."""

    pages: int = 1000  # GET and HEAD requests in progress (event streams apart), server-wide
    writes: int = 256  # requests with a body (POST) in progress, server-wide
    streams: int = 1000  # open event streams, server-wide
    per_client: int = 32  # page loads in progress, and open event streams, from one host (each)
    writes_per_client: int = 8  # requests with a body in progress from one host: bodies read at once
    body_bytes: int = 64 * 1024  # a request's body (a move, a new match)
    body_seconds: float = 10.0  # the whole body must arrive within this long of the handler's reading it
    json_depth: int = 32  # arrays and objects within each other in a body
    linger_seconds: float = 2.0  # an unread body is read and dropped this long before the connection closes


def streaming(handler: Handler) -> Handler:
    """A route's handler marked as an event stream: its requests count against the streams' caps."""

    async def stream(request: web.Request) -> web.StreamResponse:
        return await handler(request)

    stream.streams = True  # type: ignore[attr-defined]
    return stream


def _kind(request: web.Request) -> str:
    if request.method not in ("GET", "HEAD"):
        return WRITES
    route_handler = request.match_info.handler
    return STREAMS if getattr(route_handler, "streams", False) else PAGES


class Gate:
    """Requests in progress of one kind: at most `total`, and `per_host` from one host."""

    def __init__(self, total: int, per_host: int):
        self.total = total
        self.per_host = per_host
        self.in_progress = 0
        self._hosts: dict[str, int] = {}

    def enter(self, host: str) -> str | None:
        """Count one more request from `host`, or the reason it is refused (nothing counted)."""
        if self.in_progress >= self.total:
            return "the server is at its limit of open connections: try again"
        if self._hosts.get(host, 0) >= self.per_host:
            return "too many open connections from your address"
        self.in_progress += 1
        self._hosts[host] = self._hosts.get(host, 0) + 1
        return None

    def leave(self, host: str) -> None:
        self.in_progress -= 1
        left = self._hosts[host] - 1
        if left:
            self._hosts[host] = left
        else:
            del self._hosts[host]


def _refusal(status: int, message: str, reason: str = "") -> web.Response:
    body = {"error": message, **({"reason": reason} if reason else {})}
    response = web.json_response(body, status=status)
    response.force_close()  # a refused client's connection is not kept for another request
    return response


class Guard:
    """The caps on requests in progress, as an aiohttp middleware (`middleware`); and episodes of
    failed accepts (out of file descriptors), logged once each, not once a second."""

    def __init__(self, limits: WebLimits):
        self.limits = limits
        self._accept_failing = False  # an episode of failed accepts is under way
        self._accept_failed_at = 0.0
        self.gates = {
            PAGES: Gate(limits.pages, limits.per_client),
            WRITES: Gate(limits.writes, limits.writes_per_client),
            STREAMS: Gate(limits.streams, limits.per_client),
        }

    def accept_failed(self, error: object) -> None:
        """An accept failed: the first of an episode is logged."""
        self._accept_failed_at = time.monotonic()
        if not self._accept_failing:
            self._accept_failing = True
            log.error("viewer cannot accept connections", extra={"error": str(error)})

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A body declared larger than the limit: 413 at once. Over a cap of the request's kind:
        503 at once. Neither reads anything."""
        if self._accept_failing and time.monotonic() - self._accept_failed_at > ACCEPT_QUIET:
            # (connections accepted in the same batch as a failure are handled after it: not a recovery)
            self._accept_failing = False
            log.warning("viewer accepts connections again")
        declared = request.content_length
        if declared is not None and declared > self.limits.body_bytes:
            return _refusal(413, f"a request's body is at most {self.limits.body_bytes} bytes", "BODY_TOO_LARGE")
        gate = self.gates[_kind(request)]
        host = host_key(request.remote)
        refused = gate.enter(host)
        if refused is not None:
            return _refusal(503, refused)
        try:
            return await handler(request)
        finally:
            gate.leave(host)


class BodyRefused(Exception):
    """A write's body refused: its status, message and reason (the play routes' words)."""

    def __init__(self, status: int, message: str, reason: str = "BAD_BODY"):
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason


async def read_body(request: web.Request, limits: WebLimits) -> bytes:
    """The whole body, within `limits.body_seconds` (408 past it) and `limits.body_bytes` (413:
    aiohttp's `client_max_size` stops reading there)."""
    try:
        async with asyncio.timeout(limits.body_seconds):
            return await request.read()
    except TimeoutError:
        raise BodyRefused(408, f"the body did not arrive within {limits.body_seconds:g} s", "BODY_TIMEOUT") from None
    except web.HTTPRequestEntityTooLarge:
        raise BodyRefused(413, f"a request's body is at most {limits.body_bytes} bytes", "BODY_TOO_LARGE") from None


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_SIGNS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")  # +1 opening, -1 (as a signed byte) closing


def json_depth(data: bytes) -> int:
    """How deeply arrays and objects nest in `data` (the most open at any point, strings skipped):
    what a recursive parser would descend, counted without recursing, even for malformed input."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKET)
    return max(0, max(accumulate(array("b", brackets.translate(_SIGNS))), default=0))


async def read_json(request: web.Request, limits: WebLimits) -> Any:
    """The body's JSON, read within the limits; nested deeper than `limits.json_depth`, or not JSON
    (or not in its declared charset): `BodyRefused` 400, before anything is parsed."""
    data = await read_body(request, limits)
    if json_depth(data) > limits.json_depth:
        raise BodyRefused(400, f"the body's JSON nests arrays and objects deeper than {limits.json_depth}")
    try:
        return json.loads(data.decode(request.charset or "utf-8"))
    except (ValueError, UnicodeDecodeError, LookupError):
        raise BodyRefused(400, "the body is not JSON") from None
