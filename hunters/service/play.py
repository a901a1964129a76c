"""Playing in the browser: the play page's routes, beside the viewer's (web.py), over the same
`MatchManager` that serves gRPC. A move goes through `MatchManager.play`, as PlayMove's does, so it
is checked, stored and shown to every watcher the same way.

Tokens stay out of URLs and logs: the seat the page plays is held in an HttpOnly, SameSite=Strict
cookie scoped to the match's path (``/play/<id>``), set when the page creates the match or when a
seat's token or invite is exchanged for it (POST ``/play/<id>/join``). Every write is a POST of JSON
with the header ``X-Hunters-Request: 1`` and, when the browser sends one, an Origin of this server,
so a cross-site page cannot write.

Routes: GET ``/play``, ``/play/<id>`` (the page), ``/play/<id>/seat``, ``/state``, ``/events``;
POST ``/api/play`` (a new match), ``/play/<id>/join``, ``/describe``, ``/move``, ``/hint`` (in a
match created with hints: what the strong bot would play in the seat's position). Their bodies,
replies and refusals: docs/playing.md.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

from aiohttp import web

from hunters import games
from hunters.bots import check_spec
from hunters.errors import IllegalMoveError
from hunters.v1 import matches_pb2

from .analysis import Analyses
from .errors import ServiceError
from .games import adapter
from .hosts import host_key
from .invites import Invites
from .live import LiveMatch, Played
from .web import HttpError, Route, Viewer, asset, json_response, refused, same_site_write
from .webguard import read_json, streaming

log = logging.getLogger("hunters.service.web")

COOKIE = "hunters_seat"
COOKIE_DAYS = 30
BOT_PRESETS = ("random", "greedy", "mcts:iterations=300", "mcts:iterations=3000", "strong")
"""Bots the new-game form offers (any other spec may be typed)."""


def refuse(status: int, reason: str, message: str) -> HttpError:
    """A refusal with the contract's reason (the same reasons gRPC gives)."""
    return HttpError(status, message, reason)


def _play_script(game_id: str) -> bytes | None:
    """The game's play-page script (``<its package>/web/play.js``), or None."""
    try:
        package = games.get(game_id).__module__.rpartition(".")[0]
    except KeyError:
        return None
    try:
        return resources.files(package).joinpath("web", "play.js").read_bytes()
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return None


class PlayRoutes:
    """The play page's routes over a `Viewer` (its manager, its rendering of states)."""

    def __init__(self, viewer: Viewer, secure: bool = False, analyses: Analyses | None = None):
        self.viewer = viewer
        self.manager = viewer.manager
        self.analyses = analyses  # hints (analysis.py), when offered
        self.secure = secure  # served over TLS: the cookie is Secure too
        self._invites: Invites | None = None

    async def invites(self) -> Invites:
        """The invites of this server's database (keyed from its secret, read once)."""
        if self._invites is None:
            self._invites = Invites(await self.manager.store.secret("page_token_key"))
        return self._invites

    def routes(self) -> list[Route]:
        return [
            ("GET", "/play", self._page),
            ("GET", "/play/{match_id}", self._page),
            ("GET", "/static/games/{game}/play.js", self._script),
            ("GET", "/api/play", self._options),
            ("POST", "/api/play", self._create),
            ("POST", "/play/{match_id}/join", self._join),
            ("GET", "/play/{match_id}/seat", self._seat),
            ("GET", "/play/{match_id}/state", self._view),
            ("GET", "/play/{match_id}/events", streaming(self._events)),
            ("POST", "/play/{match_id}/describe", self._describe),
            ("POST", "/play/{match_id}/move", self._move),
            ("POST", "/play/{match_id}/hint", self._hint),
        ]

    # -- pages --------------------------------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=asset("play.html"), content_type="text/html", charset="utf-8")

    async def _script(self, request: web.Request) -> web.Response:
        script = _play_script(request.match_info["game"])
        if script is None:
            raise HttpError(404, "no play script for that game")
        return web.Response(body=script, content_type="text/javascript", charset="utf-8")

    async def _options(self, request: web.Request) -> web.Response:
        """What the new-game form offers: the games, bot presets, whether a create token is needed."""
        return json_response(
            {"games": self.games(), "bots": self.bots(), "create_token_required": self.manager.needs_create_token}
        )

    def games(self) -> list[dict[str, Any]]:
        out = []
        for g in games.ids():
            info = games.info(g)
            out.append(
                {
                    "game": g,
                    "name": info.name,
                    "min_players": info.min_players,
                    "max_players": info.max_players,
                    "playable": _play_script(g) is not None,
                }
            )
        return out

    def bots(self) -> list[str]:
        return [spec for spec in BOT_PRESETS if _valid_spec(spec)]

    # -- writes -------------------------------------------------------------------------------------
    async def _body(self, request: web.Request) -> dict[str, Any]:
        """The JSON object of a write, once it is known to come from this server's own page."""
        same_site_write(request)
        if request.content_type != "application/json":
            raise refuse(415, "BAD_BODY", "a write's body is JSON (Content-Type: application/json)")
        body = await read_json(request, self.viewer.limits)  # bounded in size, time and depth
        if not isinstance(body, dict):
            raise refuse(400, "BAD_BODY", "the body is a JSON object")
        return body

    def _set_cookie(self, response: web.Response, match_id: str, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            path=f"/play/{match_id}",
            max_age=COOKIE_DAYS * 24 * 3600,
            httponly=True,
            samesite="Strict",
            secure=self.secure,
        )

    async def _create(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        config = _config(body)
        you = body.get("you")
        if you is not None and (type(you) is not int or not 0 <= you < config.players):
            raise refuse(400, "INVALID_CONFIG", f"you must be a seat from 0 to {config.players - 1}, or null")
        if you is not None and any(b.seat == you for b in config.bots):
            raise refuse(400, "INVALID_CONFIG", f"seat {you} is yours and a bot's")
        token = body.get("create_token") or None
        if token is not None and not isinstance(token, str):
            raise refuse(400, "BAD_BODY", "create_token is a string")
        if token is None and self.manager.needs_create_token:
            raise refuse(
                401, "CREATE_TOKEN_REQUIRED", "this server creates matches only with its operator's create token"
            )
        live, tokens, _admin = await self.manager.create(config, token, host_key(request.remote))
        log.info("match created", extra={"match_id": live.match_id, "game": config.game, "via": "web"})
        bots = {b.seat for b in config.bots}
        invites = await self.invites()
        url = f"/play/{live.match_id}"
        response = json_response(
            {
                "match_id": live.match_id,
                "url": url,
                "you": you,
                # the open seats, for their players: a link each (the invite in its fragment, which
                # the browser never sends to a server), and the token itself for a program
                "open_seats": [
                    {"seat": s, "token": t, "link": f"{url}#invite={invites.make(live.match_id, s, t)}"}
                    for s, t in enumerate(tokens)
                    if s != you and s not in bots
                ],
            }
        )
        if you is not None:
            self._set_cookie(response, live.match_id, tokens[you])
        return response

    async def _join(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        live = await self._live(request)
        token, invite = body.get("token"), body.get("invite")
        if isinstance(invite, str) and invite:
            invites = await self.invites()
            try:
                seat, token = invites.take(live.match_id, invite)
            except ServiceError as exc:
                raise refused(exc) from None
        elif not isinstance(token, str) or not token.strip():
            raise refuse(
                400, "MISSING_TOKEN", 'send the seat\'s token as {"token": ...} or its invite as {"invite": ...}'
            )
        token = token.strip()
        seat = self.manager.seat_of(live, token)
        response = json_response({"match_id": live.match_id, "seat": seat})
        self._set_cookie(response, live.match_id, token)
        return response

    # -- the seat's view ----------------------------------------------------------------------------
    async def _live(self, request: web.Request) -> LiveMatch:
        try:
            return await self.manager.get(request.match_info["match_id"])
        except ServiceError as exc:
            raise refused(exc) from None

    def _my_seat(self, request: web.Request, live: LiveMatch) -> int | None:
        """The cookie's seat in `live` (None without a cookie); a cookie of no seat here is refused."""
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        return self.manager.seat_of(live, token)

    async def _seat(self, request: web.Request) -> web.Response:
        live = await self._live(request)
        return json_response(self._seat_info(request, live))

    async def _view(self, request: web.Request) -> web.Response:
        """The viewer's state of the latest version and the seat's (one read for the page)."""
        live = await self._live(request)
        state = await self.viewer.state(live.match_id, None)
        return json_response({"state": state, "seat": self._seat_info(request, live)})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events of ``/play/<id>/state`` now and after every change: the page draws a
        move without reading it again."""
        live = await self._live(request)
        self._my_seat(request, live)  # a cookie of no seat here is refused before the stream opens

        async def both() -> dict[str, Any]:
            state = await self.viewer.state(live.match_id, None)
            return {"state": state, "seat": self._seat_info(request, live)}

        return await self.viewer.stream(request, live, both)

    def _seat_info(self, request: web.Request, live: LiveMatch) -> dict[str, Any]:
        seat = self._my_seat(request, live)
        game = live.game
        to_move = None if not live.is_open else game.player
        mine = seat is not None and seat == to_move and seat not in live.bots
        return {
            "match_id": live.match_id,
            "game": live.adapter.game_id,
            "seat": seat,
            "bots": sorted(live.bots),
            "version": live.version,
            "to_move": to_move,
            "open": live.is_open,
            "hints": live.config.hints,
            "legal": [{"move": m.to_json(), "text": live.adapter.describe_move(m)} for m in game.legal_moves()]
            if mine
            else [],
        }

    def _move_of(self, live: LiveMatch, data: Any) -> Any:
        try:
            return live.adapter.Game.move_from_json(data)
        except (ValueError, KeyError, TypeError, AttributeError, IllegalMoveError) as exc:
            raise refuse(400, "MALFORMED", f"bad move: {exc}") from None

    async def _describe(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        live = await self._live(request)
        move = self._move_of(live, body.get("move"))
        game = live.game
        try:
            game.check(move)
            detail = game.describe(move) if hasattr(game, "describe") else None
        except IllegalMoveError as exc:
            raise refused(ServiceError.from_illegal(exc)) from None
        return json_response({"text": live.adapter.describe_move(move), "detail": detail})

    async def _move(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        live = await self._live(request)
        token = request.cookies.get(COOKIE)
        if not token:
            raise refuse(401, "MISSING_TOKEN", "this browser holds no seat of this match: join with the seat's token")
        version = body.get("version")
        if type(version) is not int:
            raise refuse(400, "BAD_VERSION", 'send the version the move was chosen at: {"move", "version"}')
        data = body.get("move")

        def to_move(game: Any) -> Any:
            return self._move_of(live, data)

        def respond(game: Any, played: Played) -> tuple[None, None]:
            return None, None  # the page's answer is built below, from the match as it is then

        live, played = await self.manager.play(live.match_id, token, version, to_move, "", b"", respond)
        log.debug("move played", extra={"match_id": live.match_id, "version": played.version, "seat": played.seat})
        # the match as it is now (the bots may have replied already): the page draws it at once
        state = await self.viewer.state(live.match_id, None)
        now = {"state": state, "seat": self._seat_info(request, live)}
        return json_response({"version": played.version, "seat": played.seat, "now": now})

    async def _hint(self, request: web.Request) -> web.Response:
        """What the strong bot would play here, for this browser's seat (its cookie's token) in a
        match created with hints: the analysis of the seat's own view (OracleService.Analyze's, under
        the same bounds: the evaluate lane, the host's calls and engine seconds)."""
        body = await self._body(request)
        if self.analyses is None:
            raise refuse(501, "NOT_SUPPORTED", "this server gives no hints")
        token = request.cookies.get(COOKIE)
        if not token:
            raise refuse(401, "MISSING_TOKEN", "this browser holds no seat of this match: join with the seat's token")
        top = body.get("top", 3)
        if type(top) is not int:
            raise refuse(400, "BAD_TOP_K", "top is the number of moves to list")
        live = await self._live(request)
        return json_response(await self.analyses.hint(live.match_id, token, top, host_key(request.remote)))


def _valid_spec(spec: str) -> bool:
    try:
        check_spec(spec)
    except ValueError:
        return False
    return True


def _config(body: dict[str, Any]) -> matches_pb2.GameConfig:
    """The GameConfig of a new-game request (INVALID_CONFIG in the contract's words otherwise)."""
    game, players = body.get("game"), body.get("players")
    if not isinstance(game, str) or type(players) is not int:
        raise refuse(400, "INVALID_CONFIG", "a new game needs its game id and number of players")
    ad = adapter(game)
    info = games.info(game)
    if not info.min_players <= players <= info.max_players:
        raise refuse(
            400, "INVALID_CONFIG", f"{info.name} is played by {info.min_players} to {info.max_players} players"
        )
    config = matches_pb2.GameConfig(game=game, players=players)
    options = body.get("options")
    if options:
        if not isinstance(options, dict):
            raise refuse(400, "INVALID_CONFIG", "options is a JSON object of the game's options")
        try:
            ad.inner.options_to_proto(options, config)
        except (ValueError, TypeError, KeyError) as exc:
            raise refuse(400, "INVALID_CONFIG", f"bad options: {exc}") from None
    hints = body.get("hints", False)
    if type(hints) is not bool:
        raise refuse(400, "INVALID_CONFIG", "hints is true or false")
    config.hints = hints
    seed = body.get("seed")
    if seed is not None:
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise refuse(400, "INVALID_CONFIG", "seed is an integer from 0 to 2^64-1")
        config.seed = seed
    bots = body.get("bots") or []
    if not isinstance(bots, list):
        raise refuse(400, "INVALID_CONFIG", "bots is a list of {seat, bot}")
    for entry in bots:
        if not isinstance(entry, dict) or type(entry.get("seat")) is not int or not isinstance(entry.get("bot"), str):
            raise refuse(400, "INVALID_CONFIG", 'each bot is {"seat": int, "bot": spec}')
        config.bots.add(seat=entry["seat"], bot=entry["bot"])
    return config
