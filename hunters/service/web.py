"""The live viewer's HTTP side (`hunters serve --http PORT`): the pages and their assets, a JSON API
and server-sent events, served by aiohttp's web server on the server's own event loop out of the same
`MatchManager` that serves gRPC (one source of truth). Over TLS when the server has it (the gRPC
certificate).

Reading shows only what anyone may see: a game's public `view()` and the picture drawn from it, the
moves and the score events (the same ones WatchMatch streams), never seeds, piles or tokens. Playing
(play.py: the play page's routes under ``/play/<id>``) takes a seat's token once and keeps it in a
cookie.

Routes (GET or HEAD; the table is `Viewer.routes`, play.py adds its own):
- ``/`` the list of matches, ``/match/<id>`` the match page; ``/static/<file>`` their assets;
- ``/api/games`` the registered games (id and name);
- ``/api/matches?game=&page_token=`` a page of matches (newest last), ``next_page_token``;
- ``/api/matches/<id>?at=N`` the state after N moves (default: the latest): view, SVG, the log of
  the moves around it (at most 400, from ``log_first``);
- ``/api/matches/<id>/picture.svg?at=N`` the picture alone;
- ``/api/matches/<id>/events`` server-sent events: ``{"version", "over", "open"}`` now and at every
  change, until the match is closed (a comment line every 15 s keeps idle proxies from closing it).

Limits (webguard.py; docs/pictures.md#limits): page loads, writes and event streams in progress,
each kind server-wide and per host (more get 503 at once); bodies by size (413 on the declared
length, before reading), by time (408) and by JSON depth (400); the request line and headers (8
KiB); idle keep-alive connections (closed after 10 s). What the viewer keeps between requests is
bounded in bytes (webcache.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

import grpc
from aiohttp import web

from hunters import games

from .errors import ServiceError
from .live import LiveMatch
from .matches import MatchManager
from .store_base import StoreUnavailable
from .webcache import CACHE_BYTES, ViewerCache
from .webguard import BodyRefused, Guard, WebLimits, streaming

log = logging.getLogger("hunters.service.web")
# aiohttp's protocol errors (a request that is not HTTP, a header too long) are the client's: its
# answer (400, 431...) says so, the server's log does not (a handler's faults are logged: `_errors`)
_protocol_log = logging.getLogger("hunters.service.web.protocol")
_protocol_log.setLevel(logging.CRITICAL)

MAX_REQUEST_BYTES = 8192  # the request line, and each header
REQUEST_TIMEOUT = 10.0  # an idle keep-alive connection is closed after this long
HEARTBEAT_SECONDS = 15.0
WRITE_SECONDS = 30.0  # an event stream not read for this long is closed (its buffers are full)
LOG_WINDOW = 400  # log entries a state carries: those around the version shown (the page asks for more)
ASSETS = {
    "index.html": "text/html",
    "match.html": "text/html",
    "play.html": "text/html",
    "viewer.js": "text/javascript",
    "play.js": "text/javascript",
    "review.js": "text/javascript",
    "viewer.css": "text/css",
}
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    # the pages' own scripts only (no inline script, no CDN); the server's SVG carries inline styles
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Route = tuple[str, str, Handler]  # (method, path pattern, handler); GET routes answer HEAD too


async def _send(request: web.Request, response: web.StreamResponse, data: bytes) -> None:
    """One event on a stream, written within WRITE_SECONDS: a reader that stops reading (its
    socket's buffers full) loses its stream, and its slot, instead of holding them for ever."""
    try:
        async with asyncio.timeout(WRITE_SECONDS):
            await response.write(data)
    except TimeoutError:
        if request.transport is not None:
            request.transport.abort()  # its unsent events dropped, its descriptor freed now
        raise ConnectionResetError(f"the stream was not read for {WRITE_SECONDS:g} s") from None


class HttpError(Exception):
    """A refusal: its status, message, and (the play routes') the contract's reason and details."""

    def __init__(self, status: int, message: str, reason: str = "", **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, **({"reason": self.reason} if self.reason else {}), **self.extra}


_STATUS = {
    grpc.StatusCode.INVALID_ARGUMENT: 400,
    grpc.StatusCode.UNAUTHENTICATED: 401,
    grpc.StatusCode.PERMISSION_DENIED: 403,
    grpc.StatusCode.NOT_FOUND: 404,
    grpc.StatusCode.FAILED_PRECONDITION: 409,
    grpc.StatusCode.ABORTED: 409,
    grpc.StatusCode.RESOURCE_EXHAUSTED: 429,
    grpc.StatusCode.UNAVAILABLE: 503,
}


def refused(exc: ServiceError) -> HttpError:
    """A service refusal as HTTP: its status, reason and message (the same ones gRPC sends)."""
    return HttpError(_STATUS.get(exc.code, 400), exc.message, exc.reason, **exc.metadata)


WRITE_HEADER = "X-Hunters-Request"


def same_site_write(request: web.Request) -> None:
    """Refuse (403 CROSS_SITE) a write that does not come from this server's own pages: it carries
    the header ``X-Hunters-Request: 1`` (which a cross-site form cannot send, and a cross-site
    script only after a preflight this server never grants), and an Origin of this server when the
    browser sends one."""
    if request.headers.get(WRITE_HEADER) != "1":
        raise HttpError(403, f"a write needs the header {WRITE_HEADER}: 1 (sent by the pages)", "CROSS_SITE")
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        raise HttpError(403, "a write from another site's page is refused", "CROSS_SITE")
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        raise HttpError(403, "a write from another site's page is refused", "CROSS_SITE")


def asset(name: str) -> bytes:
    return resources.files("hunters.web").joinpath(name).read_bytes()


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _error(status: int, message: str) -> web.Response:
    return json_response({"error": message}, status)


SEAT_NAMES = ("red", "blue", "yellow", "purple", "orange")
"""The viewer's seat colours by seat (modulo their number): viewer.js draws the same."""


def _seat_name(seat: int) -> str:
    return SEAT_NAMES[seat % len(SEAT_NAMES)]


class Viewer:
    """The viewer's routes over a `MatchManager`; `start` serves them (and any `extra` routes) with
    aiohttp on the running loop."""

    def __init__(
        self,
        manager: MatchManager,
        limits: WebLimits | None = None,
        ssl_context: ssl.SSLContext | None = None,
        cache_bytes: int = CACHE_BYTES,
    ):
        self.manager = manager
        self.limits = limits or WebLimits()
        self.guard = Guard(self.limits)
        self.cache = ViewerCache(cache_bytes, _seat_name)
        self.ssl_context = ssl_context
        self.extra: list[Route] = []  # more routes (play.py's, reviewweb.py's), added before `start`
        self._runner: web.AppRunner | None = None
        self._streams: set[asyncio.Task[Any]] = set()
        self._stopping: asyncio.Future[None] | None = None  # done once `stop` is called: streams end

    # -- serving ----------------------------------------------------------------------------------
    def routes(self) -> list[Route]:
        """The read-only routes: (method, path, handler)."""
        return [
            ("GET", "/", self._page("index.html")),
            ("GET", "/index.html", self._page("index.html")),
            ("GET", "/match/{match_id}", self._page("match.html")),
            ("GET", "/static/{name}", self._static),
            ("GET", "/api/games", self._games),
            ("GET", "/api/matches", self._matches),
            ("GET", "/api/matches/{match_id}", self._state),
            ("GET", "/api/matches/{match_id}/picture.svg", self._picture),
            ("GET", "/api/matches/{match_id}/events", streaming(self._events)),
        ]

    def app(self) -> web.Application:
        app = web.Application(client_max_size=self.limits.body_bytes, middlewares=[self.guard.middleware, self._errors])
        for method, path, handler in (*self.routes(), *self.extra):
            if method == "GET":
                app.router.add_get(path, handler)  # and HEAD
            else:
                app.router.add_route(method, path, handler)
        app.on_response_prepare.append(self._headers)
        return app

    def add_text(self, path: str, produce: Callable[[], tuple[str, bytes]]) -> None:
        """One more GET route answering `produce()`'s (content type, body), e.g. /metrics."""

        async def text(request: web.Request) -> web.Response:
            content_type, body = produce()
            return web.Response(body=body, headers={"Content-Type": content_type})

        self.extra.append(("GET", path, text))

    async def start(self, host: str, port: int, reuse_port: bool = False) -> int:
        """Listen on host:port (0: a free port); return the port. `reuse_port`: the workers of one
        server share it (SO_REUSEPORT)."""
        loop = asyncio.get_running_loop()
        previous = loop.get_exception_handler()

        def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            # asyncio reports every failed accept (EMFILE: out of file descriptors) and retries a
            # second later: one line per episode instead, until a connection is accepted again
            if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
                self.guard.accept_failed(context.get("exception"))
                return
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)

        loop.set_exception_handler(on_loop_error)
        self._stopping = loop.create_future()
        runner = web.AppRunner(
            self.app(),
            access_log=None,  # the server logs in JSON lines; no line per request (nor its URL)
            handle_signals=False,
            handler_cancellation=True,  # a browser gone ends its request (its event stream) at once
            keepalive_timeout=REQUEST_TIMEOUT,
            lingering_time=self.limits.linger_seconds,
            max_line_size=MAX_REQUEST_BYTES,
            max_field_size=MAX_REQUEST_BYTES,
            shutdown_timeout=0.5,
            logger=_protocol_log,
        )
        await runner.setup()
        site = web.TCPSite(
            runner, host, port, ssl_context=self.ssl_context, reuse_address=True, reuse_port=reuse_port or None
        )
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        return int(runner.addresses[0][1])

    async def stop(self) -> None:
        """Stop listening and end every open request (event streams included)."""
        if self._stopping is not None and not self._stopping.done():
            self._stopping.set_result(None)
        if self._runner is not None:
            await self._runner.cleanup()

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refusals as JSON `{"error": ...}` with their status; a fault is a 500 logged once."""
        try:
            return await handler(request)
        except HttpError as exc:
            return json_response(exc.body(), exc.status)
        except BodyRefused as exc:
            response = json_response({"error": exc.message, "reason": exc.reason}, exc.status)
            response.force_close()  # (a body not read to its end: the connection is not reused)
            return response
        except ServiceError as exc:
            return json_response(refused(exc).body(), refused(exc).status)
        except StoreUnavailable:
            return _error(503, "the database cannot be reached now: try again")
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            message = {404: f"nothing at {request.path}", 405: f"{request.method} is not allowed here"}
            return _error(exc.status, message.get(exc.status, exc.reason))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("viewer request failed", extra={"path": request.path})
            return _error(500, "the server failed to answer: try again")

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)

    # -- routes -------------------------------------------------------------------------------------
    def _page(self, name: str) -> Handler:
        async def page(request: web.Request) -> web.Response:
            return web.Response(body=asset(name), content_type=ASSETS[name], charset="utf-8")

        return page

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ASSETS:
            raise HttpError(404, f"no asset {name!r}")
        return web.Response(body=asset(name), content_type=ASSETS[name], charset="utf-8")

    async def _games(self, request: web.Request) -> web.Response:
        return json_response(self.games())

    async def _matches(self, request: web.Request) -> web.Response:
        return json_response(await self.matches(dict(request.query)))

    async def _state(self, request: web.Request) -> web.Response:
        return json_response(await self.state(request.match_info["match_id"], request.query.get("at")))

    async def _picture(self, request: web.Request) -> web.Response:
        state = await self.state(request.match_info["match_id"], request.query.get("at"))
        return web.Response(text=state["svg"], content_type="image/svg+xml", charset="utf-8")

    async def _live(self, match_id: str) -> LiveMatch:
        try:
            return await self.manager.get(match_id)
        except ServiceError as exc:
            raise HttpError(404 if exc.reason == "MATCH_NOT_FOUND" else 400, exc.message) from None
        except StoreUnavailable:
            raise HttpError(503, "the database cannot be read now: try again") from None

    async def matches(self, query: dict[str, str]) -> dict[str, Any]:
        """One page of matches, in creation order (the manager's ListMatches page)."""
        try:
            found, token = await self.manager.page(100, query.get("page_token", ""), query.get("game", ""))
        except ServiceError as exc:
            raise HttpError(400, exc.message) from None
        except StoreUnavailable:
            raise HttpError(503, "the database cannot be read now: try again") from None
        return {
            "matches": [
                {
                    "match_id": m.match_id,
                    "game": m.adapter.game_id,
                    "game_name": m.game.INFO.name,
                    "players": m.game.players,
                    "version": m.version,
                    "over": m.game.is_over,
                    "abandoned": m.abandoned,
                    "player": None if m.game.is_over else m.game.player,
                    "created_at": m.created_at,
                }
                for m in found
            ],
            "next_page_token": token,
        }

    def games(self) -> dict[str, Any]:
        """The registered games, by id with their names (the list page's filter)."""
        return {"games": [{"game": g, "name": games.info(g).name} for g in games.ids()]}

    async def state(self, match_id: str, at: str | None) -> dict[str, Any]:
        """The public state after `at` moves (default: the latest) with its picture and the log."""
        live = await self._live(match_id)
        requested = None
        if at is not None and at != "":
            try:
                requested = int(at)
            except ValueError:
                raise HttpError(400, "at must be an int") from None
        history = await self.cache.history_off_loop(live, self.manager.reads.run)
        # the latest version read after the history is built: a move committed meanwhile (while the
        # history was extended off the loop) is in the state, as it is in `over` below
        latest = live.version
        version = latest if requested is None else requested
        if not 0 <= version <= latest:
            raise HttpError(400, f"at must be from 0 to {latest}")
        shown = self.cache.shown(live, history, version)
        first = max(0, min(version - LOG_WINDOW // 2, latest - LOG_WINDOW))
        return {
            "match_id": live.match_id,
            "game": live.adapter.game_id,
            "game_name": live.game.INFO.name,
            "players": live.game.players,
            "version": version,
            "latest": latest,
            "over": live.game.is_over,
            "abandoned": live.abandoned,
            "hints": live.config.hints,
            "view": shown["view"],
            "svg": shown["svg"],
            "setup_events": history.setup,
            "setup_text": history.setup_text,
            "log": history.entries[first : first + LOG_WINDOW],  # the moves around `version`
            "log_first": first + 1,
        }

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the match's version now and after every change, until it closes or
        the browser goes away (its request is cancelled at once: aiohttp's handler cancellation)."""
        live = await self._live(request.match_info["match_id"])

        async def change() -> dict[str, Any]:
            return {"version": live.version, "over": live.game.is_over, "open": live.is_open}

        return await self.stream(request, live, change)

    async def stream(
        self, request: web.Request, live: LiveMatch, payload: Callable[[], Awaitable[dict[str, Any]]]
    ) -> web.StreamResponse:
        """Server-sent events of `payload()` (a JSON object) now and after every change of `live`,
        until it closes, the browser goes away or the server stops."""
        stopping = self._stopping
        assert stopping is not None, "start() first"
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        try:
            response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
            await response.prepare(request)
            await _send(request, response, b"retry: 1000\n\n")
            sent: tuple[int, bool] | None = None
            while True:
                now = (live.version, live.is_open)
                if now != sent:
                    data = json.dumps(await payload())
                    await _send(request, response, f"data: {data}\n\n".encode())
                    sent = now
                if not live.is_open or live.deleted:
                    return response
                changed = asyncio.ensure_future(live.changed.wait())
                try:
                    await asyncio.wait((changed, stopping), timeout=HEARTBEAT_SECONDS, return_when="FIRST_COMPLETED")
                finally:
                    changed.cancel()
                if stopping.done():
                    return response
                if not changed.done() or changed.cancelled():
                    await _send(request, response, b": keep-alive\n\n")
        except ConnectionError:  # the browser went away mid-write, or stopped reading (`_send`)
            return web.StreamResponse()
        finally:
            self._streams.discard(task)
