"""The live viewer's HTTP side (`hunters serve --http PORT`): the page and its assets, a small JSON
API and server-sent events, served from the server's own event loop out of the same `MatchManager`
that serves gRPC (one source of truth).

Why plain HTTP + JSON + server-sent events on asyncio streams, and not gRPC-Web/Connect or aiohttp:
the viewer only reads (a list, one state, a change signal), so a browser's `fetch` and `EventSource`
need no generated client, no JavaScript bundle and no proxy; the server needs no new dependency. It
is read-only and shows only what anyone may see: a game's public `view()` and the picture drawn from
it, the moves and the score events (the same ones WatchMatch streams) — never seeds, piles or tokens.

Routes (GET or HEAD):
- ``/`` the list of matches, ``/match/<id>`` the match page; ``/static/<file>`` their assets;
- ``/api/games`` the registered games (id and name);
- ``/api/matches?game=&page_token=`` a page of matches (newest last), ``next_page_token``;
- ``/api/matches/<id>?at=N`` the state after N moves (default: the latest): view, SVG, the log of
  the moves around it (at most 400, from ``log_first``);
- ``/api/matches/<id>/picture.svg?at=N`` the picture alone;
- ``/api/matches/<id>/events`` server-sent events: ``{"version", "over", "open"}`` now and at every
  change, until the match is closed (a comment line every 15 s keeps idle proxies from closing it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from hunters import games, pictures

from .errors import ServiceError
from .matches import LiveMatch, MatchManager
from .store_base import StoreUnavailable

log = logging.getLogger("hunters.service.web")

MAX_REQUEST_BYTES = 8192
REQUEST_TIMEOUT = 10.0
HEARTBEAT_SECONDS = 15.0
STATE_CACHE = 256  # rendered (match, version) states kept
MAX_CONNECTIONS = 1000  # open connections (event streams included); more get 503 at once
MAX_PER_CLIENT = 32  # open connections from one address (a browser opens a handful)
ACCEPT_QUIET = 1.5  # seconds without a failed accept (asyncio retries every second) that end an episode
LOG_WINDOW = 400  # log entries a state carries: those around the version shown (the page asks for more)
CHECKPOINT = 256  # a copy of the game kept every this many moves, so that ?at=N replays at most that many
MAX_CHECKPOINTS = 128  # per match; past it every other one goes and the spacing doubles
ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "match.html": "text/html; charset=utf-8",
    "viewer.js": "text/javascript; charset=utf-8",
    "viewer.css": "text/css; charset=utf-8",
}
_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


class HttpError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _asset(name: str) -> bytes:
    return resources.files("hunters.web").joinpath(name).read_bytes()


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
    """The viewer's routes over a `MatchManager`; `start` serves them on an asyncio server."""

    def __init__(self, manager: MatchManager, max_connections: int = MAX_CONNECTIONS, per_client: int = MAX_PER_CLIENT):
        self.manager = manager
        self.max_connections = max_connections
        self.per_client = per_client
        self._clients: dict[str, int] = {}  # address -> open connections
        self._accept_failing = False  # an episode of failed accepts (out of file descriptors) is under way
        self._accept_failed_at = 0.0
        self._states: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._logs: OrderedDict[str, _Log] = OrderedDict()
        self._server: asyncio.Server | None = None
        self._streams: set[asyncio.Task[Any]] = set()
        # more GET routes: path -> a function answering (content type, body), e.g. /metrics
        self.routes: dict[str, Callable[[], tuple[str, bytes]]] = {}

    # -- serving ----------------------------------------------------------------------------------
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
        self._server = await asyncio.start_server(
            self._handle, host, port, limit=MAX_REQUEST_BYTES, reuse_port=reuse_port or None
        )
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop listening and end every open connection (event streams included)."""
        if self._server is not None:
            self._server.close()
        for task in list(self._streams):
            task.cancel()
        if self._streams:
            await asyncio.gather(*self._streams, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        if self._accept_failing and time.monotonic() - self._accept_failed_at > ACCEPT_QUIET:
            # (connections accepted in the same batch as a failure are handled after it: not a recovery)
            self._accept_failing = False
            log.warning("viewer accepts connections again")
        peer = writer.get_extra_info("peername")
        client = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        self._streams.add(task)
        self._clients[client] = self._clients.get(client, 0) + 1
        try:
            if len(self._streams) > self.max_connections:
                await self._send(writer, 503, "text/plain", b"too many open connections")
                return
            if self._clients[client] > self.per_client:
                await self._send(writer, 503, "text/plain", b"too many open connections from your address")
                return
            await self._serve_one(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("viewer request failed")
        finally:
            self._streams.discard(task)
            left = self._clients[client] - 1
            if left:
                self._clients[client] = left
            else:
                del self._clients[client]
            writer.close()

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), REQUEST_TIMEOUT)
        try:
            method, target, _ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        except ValueError:
            await self._send(writer, 400, "text/plain", b"bad request line")
            return
        if method not in ("GET", "HEAD"):
            await self._send(writer, 405, "text/plain", b"the viewer only reads: GET or HEAD")
            return
        url = urlsplit(target)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        path = unquote(url.path)
        try:
            if path.endswith("/events") and path.startswith("/api/matches/"):
                await self._events(reader, writer, path[len("/api/matches/") : -len("/events")])
                return
            status, kind, body = await self.route(path, query)
        except HttpError as exc:
            status, kind, body = exc.status, "application/json", json.dumps({"error": exc.message}).encode()
        await self._send(writer, status, kind, b"" if method == "HEAD" else body)

    async def _send(self, writer: asyncio.StreamWriter, status: int, kind: str, body: bytes) -> None:
        writer.write(
            f"HTTP/1.1 {status} {_REASONS[status]}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            f"Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        await writer.drain()

    # -- routes -------------------------------------------------------------------------------------
    async def route(self, path: str, query: dict[str, str]) -> tuple[int, str, bytes]:
        """(status, content type, body) of a GET; HttpError for a bad or unknown request."""
        if path in self.routes:
            return (200, *self.routes[path]())
        if path in ("/", "/index.html"):
            return 200, ASSETS["index.html"], _asset("index.html")
        if path.startswith("/match/"):
            return 200, ASSETS["match.html"], _asset("match.html")
        if path.startswith("/static/"):
            name = path[len("/static/") :]
            if name not in ASSETS:
                raise HttpError(404, f"no asset {name!r}")
            return 200, ASSETS[name], _asset(name)
        if path == "/api/games":
            return 200, "application/json", json.dumps(self.games()).encode()
        if path == "/api/matches":
            return 200, "application/json", json.dumps(await self.matches(query)).encode()
        if path.startswith("/api/matches/"):
            rest = path[len("/api/matches/") :]
            if rest.endswith("/picture.svg"):
                state = await self.state(rest[: -len("/picture.svg")], query.get("at"))
                return 200, "image/svg+xml; charset=utf-8", state["svg"].encode()
            if "/" not in rest:
                return 200, "application/json", json.dumps(await self.state(rest, query.get("at"))).encode()
        raise HttpError(404, f"nothing at {path}")

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
        history = self._log(live)
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

    def _log(self, live: LiveMatch) -> _Log:
        """Each move with its seat and score events, replayed once and extended as the match moves."""
        history = self._logs.get(live.match_id)
        if history is None or len(history.entries) > live.version:
            game = live.adapter.from_record(dict(live.record, moves=[]))
            history = _Log(game, _jsonable(game.events), live.adapter.describe_events(game.events, _seat_name))
            history.keep(0)
            self._logs[live.match_id] = history
            while len(self._logs) > STATE_CACHE:
                self._logs.popitem(last=False)
        self._logs.move_to_end(live.match_id)
        while len(history.entries) < live.version:
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
            history.keep(i + 1)
        return history

    async def _events(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, match_id: str) -> None:
        """Server-sent events: the match's version now and after every change, until it closes or
        the browser goes away (noticed at once: a read that ends when the connection does)."""
        try:
            live = await self._live(match_id)
        except HttpError as exc:
            await self._send(writer, exc.status, "application/json", json.dumps({"error": exc.message}).encode())
            return
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
            b"Connection: close\r\n\r\nretry: 1000\n\n"
        )
        sent: tuple[int, bool] | None = None
        gone = asyncio.ensure_future(reader.read(1))
        try:
            while True:
                now = (live.version, live.is_open)
                if now != sent:
                    data = json.dumps({"version": live.version, "over": live.game.is_over, "open": live.is_open})
                    writer.write(f"data: {data}\n\n".encode())
                    sent = now
                await writer.drain()
                if not live.is_open or live.deleted:
                    return
                changed = asyncio.ensure_future(live.changed.wait())
                try:
                    await asyncio.wait((changed, gone), timeout=HEARTBEAT_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    changed.cancel()
                if gone.done():
                    return
                if not changed.done() or changed.cancelled():
                    writer.write(b": keep-alive\n\n")
        finally:
            gone.cancel()
