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

Limits: requests in progress (event streams included) server-wide and per client address (more get
503 at once), the request line and headers (8 KiB), bodies (64 KiB), idle keep-alive connections
(closed after 10 s).
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import grpc
from aiohttp import web

from hunters import games, pictures

from .errors import ServiceError
from .live import LiveMatch
from .matches import MatchManager
from .store_base import StoreUnavailable

log = logging.getLogger("hunters.service.web")
# aiohttp's protocol errors (a request that is not HTTP, a header too long) are the client's: its
# answer (400, 431...) says so, the server's log does not (a handler's faults are logged: `_errors`)
_protocol_log = logging.getLogger("hunters.service.web.protocol")
_protocol_log.setLevel(logging.CRITICAL)

MAX_REQUEST_BYTES = 8192  # the request line, and each header
MAX_BODY_BYTES = 64 * 1024  # a request's body (a move, a new match)
REQUEST_TIMEOUT = 10.0  # an idle keep-alive connection is closed after this long
HEARTBEAT_SECONDS = 15.0
STATE_CACHE = 256  # rendered (match, version) states kept
MAX_CONNECTIONS = 1000  # requests in progress (event streams included); more get 503 at once
MAX_PER_CLIENT = 32  # requests in progress from one address (a browser opens a handful)
ACCEPT_QUIET = 1.5  # seconds without a failed accept (asyncio retries every second) that end an episode
LOG_WINDOW = 400  # log entries a state carries: those around the version shown (the page asks for more)
CHECKPOINT = 256  # a copy of the game kept every this many moves, so that ?at=N replays at most that many
MAX_CHECKPOINTS = 128  # per match; past it every other one goes and the spacing doubles
ASSETS = {
    "index.html": "text/html",
    "match.html": "text/html",
    "play.html": "text/html",
    "viewer.js": "text/javascript",
    "play.js": "text/javascript",
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


def asset(name: str) -> bytes:
    return resources.files("hunters.web").joinpath(name).read_bytes()


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _error(status: int, message: str) -> web.Response:
    return json_response({"error": message}, status)


def _jsonable(value: Any) -> Any:
    """Events are named tuples: as objects; tuples as lists."""
    if hasattr(value, "_asdict"):
        return {k: _jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


@dataclass
class _Log:
    """A match replayed move by move once, for the per-move score events of its log, with a copy of
    the game every `spacing` moves (`checkpoints`: version -> game) to replay an earlier state from."""

    game: Any
    setup: list[Any]
    setup_text: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: dict[int, Any] = field(default_factory=dict)
    spacing: int = CHECKPOINT

    def keep(self, version: int) -> None:
        if version % self.spacing:
            return
        self.checkpoints[version] = self.game.clone()
        if len(self.checkpoints) > MAX_CHECKPOINTS:
            self.spacing *= 2
            self.checkpoints = {v: g for v, g in self.checkpoints.items() if v % self.spacing == 0}

    def replay(self, version: int) -> Any:
        """The game after `version` moves (at most `spacing` moves played from a checkpoint)."""
        start = max((v for v in self.checkpoints if v <= version), default=None)
        if start is None:
            raise LookupError(version)
        game = self.checkpoints[start].clone()
        return game, start


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
        max_connections: int = MAX_CONNECTIONS,
        per_client: int = MAX_PER_CLIENT,
        ssl_context: ssl.SSLContext | None = None,
    ):
        self.manager = manager
        self.max_connections = max_connections
        self.per_client = per_client
        self.ssl_context = ssl_context
        self.extra: list[Route] = []  # more routes (play.py's), added before `start`
        self._in_flight = 0
        self._clients: dict[str, int] = {}  # address -> requests in progress
        self._accept_failing = False  # an episode of failed accepts (out of file descriptors) is under way
        self._accept_failed_at = 0.0
        self._states: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._logs: OrderedDict[str, _Log] = OrderedDict()
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
            ("GET", "/api/matches/{match_id}/events", self._events),
        ]

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY_BYTES, middlewares=[self._limits, self._errors])
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
                self._accept_failed_at = time.monotonic()
                if not self._accept_failing:
                    self._accept_failing = True
                    log.error("viewer cannot accept connections", extra={"error": str(context.get("exception"))})
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
    async def _limits(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Requests in progress, server-wide and per address: more get 503 at once."""
        if self._accept_failing and time.monotonic() - self._accept_failed_at > ACCEPT_QUIET:
            # (connections accepted in the same batch as a failure are handled after it: not a recovery)
            self._accept_failing = False
            log.warning("viewer accepts connections again")
        client = request.remote or ""
        self._in_flight += 1
        self._clients[client] = self._clients.get(client, 0) + 1
        try:
            if self._in_flight > self.max_connections:
                return web.Response(status=503, text="too many open connections")
            if self._clients[client] > self.per_client:
                return web.Response(status=503, text="too many open connections from your address")
            return await handler(request)
        finally:
            self._in_flight -= 1
            left = self._clients[client] - 1
            if left:
                self._clients[client] = left
            else:
                del self._clients[client]

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refusals as JSON `{"error": ...}` with their status; a fault is a 500 logged once."""
        try:
            return await handler(request)
        except HttpError as exc:
            return json_response(exc.body(), exc.status)
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
        latest = live.version
        if at is None or at == "":
            version = latest
        else:
            try:
                version = int(at)
            except ValueError:
                raise HttpError(400, "at must be an int") from None
            if not 0 <= version <= latest:
                raise HttpError(400, f"at must be from 0 to {latest}")
        key = (live.match_id, version)
        shown = self._states.get(key)
        history = await self._log(live)
        if shown is None:
            game = live.game if version == latest else self._replay(live, history, version)
            try:
                picture = pictures.svg(game)
            except ValueError:  # a game without pictures: the page shows the rest
                picture = ""
            shown = {"view": game.view(), "svg": picture}
            self._states[key] = shown
            while len(self._states) > STATE_CACHE:
                self._states.popitem(last=False)
        else:
            self._states.move_to_end(key)
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
            "view": shown["view"],
            "svg": shown["svg"],
            "setup_events": history.setup,
            "setup_text": history.setup_text,
            "log": history.entries[first : first + LOG_WINDOW],  # the moves around `version`
            "log_first": first + 1,
        }

    def _replay(self, live: LiveMatch, history: _Log, version: int) -> Any:
        """The game after `version` moves: from the nearest checkpoint at or before it."""
        game, start = history.replay(version)
        for move in live.moves[start:version]:
            game.play(move)
        return game

    async def _log(self, live: LiveMatch) -> _Log:
        """Each move with its seat and score events, replayed once and extended as the match moves:
        on the reads thread, a few milliseconds at a time (its jobs run one at a time, so two pages
        extending one log take turns)."""
        history = self._logs.get(live.match_id)
        if history is None or len(history.entries) > live.version:
            game = live.adapter.from_record(dict(live.record, moves=[]))
            history = _Log(game, _jsonable(game.events), live.adapter.describe_events(game.events, _seat_name))
            history.keep(0)
            self._logs[live.match_id] = history
            while len(self._logs) > STATE_CACHE:
                self._logs.popitem(last=False)
        self._logs.move_to_end(live.match_id)

        def extend(history: _Log, end: int) -> None:
            stop = time.monotonic() + 0.005
            while len(history.entries) < end and time.monotonic() < stop:
                i = len(history.entries)
                move = live.moves[i]
                events = history.game.play(move)
                history.entries.append(
                    {
                        "version": i + 1,
                        "seat": live.seats[i],
                        "move": move.to_json(),
                        "events": _jsonable(events),
                        "text": live.adapter.describe_move(move),
                        "events_text": live.adapter.describe_events(events, _seat_name),
                    }
                )
                if (i + 1) % history.spacing == 0:  # a new dict: the loop may be reading the old one
                    history.checkpoints = dict(history.checkpoints)
                    history.keep(i + 1)

        end = live.version
        while len(history.entries) < end:
            await self.manager.reads.run(extend, history, end)
        return history

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
            await response.write(b"retry: 1000\n\n")
            sent: tuple[int, bool] | None = None
            while True:
                now = (live.version, live.is_open)
                if now != sent:
                    data = json.dumps(await payload())
                    await response.write(f"data: {data}\n\n".encode())
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
                    await response.write(b": keep-alive\n\n")
        except ConnectionError:  # the browser went away mid-write
            return web.StreamResponse()
        finally:
            self._streams.discard(task)
