"""The oracle's `Perft` and conformance-vector RPCs as plain functions (run off the event loop):
the position of a request, the rows of its divide, one child counted under the call's bounds, and
the vector files the installed games publish. No rule lives here: counts are the games' own
`perft`, vectors their plugins' suites."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import grpc

import hunters
from hunters.conformance import vectors
from hunters.errors import IllegalMoveError, PerftStopped
from hunters.game_base import AnyGame
from hunters.perft import PerftLimit, chance_root, perft, perft_children
from hunters.v1 import oracle_pb2

from .engine import Cancel
from .errors import ServiceError, clip, invalid
from .games import ServiceAdapter, adapter
from .stopping import Stopper, TimeLeft

__all__ = [
    "MAX_PERFT_DEPTH",
    "MAX_PERFT_NODES",
    "TimeLeft",
    "count_child",
    "get_vectors",
    "list_vectors",
    "new_limit",
    "oracle_position",
    "perft_rows",
]

MAX_PERFT_DEPTH = 8
MAX_PERFT_NODES = 100_000_000
"""Most positions one Perft call may expand (each a move list; bulk-counted leaves are free): about
1 to 2.5 minutes of one core in the built-in games, which expand 0.7 to 1.6 million a second."""

Row = tuple[oracle_pb2.PerftResponse, AnyGame, int]


def oracle_position(request: oracle_pb2.PerftRequest | oracle_pb2.AnalyzeRequest, ad: ServiceAdapter) -> AnyGame:
    """The position of an oracle request that sends its own: a new game of its config (which needs a
    seed or explicit options, and no bot seats) and its moves played (INVALID_ARGUMENT /
    ILLEGAL_MOVE for a move the rules refuse)."""
    config = request.config
    if config.bots:
        raise invalid("INVALID_CONFIG", "bot seats belong to matches (CreateMatch), not to the oracle")
    if not config.HasField("seed") and not config.HasField("options"):
        raise invalid("INVALID_CONFIG", "the oracle needs a seed or explicit options to reproduce a game")
    game: AnyGame = ad.new_game(config, config.seed)
    for index, pb in enumerate(request.moves):
        try:
            game.play(ad.move_from_proto(pb))
        except (IllegalMoveError, ServiceError) as exc:
            raise invalid("ILLEGAL_MOVE", f"move {index} is refused ({exc.reason}): {exc.message}") from None
    return game


def perft_rows(request: oracle_pb2.PerftRequest, cancel: Cancel) -> tuple[list[Row], int | None]:
    """The children of the request's position, each with its divide line (count to fill in), its
    position and the depth left below it; and the total when it needs no counting (depth 0, or a
    game that is over). Bad requests are INVALID_ARGUMENT with a reason."""
    ad = adapter(request.config.game)
    if not 1 <= request.depth <= MAX_PERFT_DEPTH:
        raise invalid("BAD_DEPTH", f"depth must be from 1 to {MAX_PERFT_DEPTH}")
    if request.max_nodes < 0:
        raise invalid("BAD_MAX_NODES", "max_nodes must be 0 (the server's limit) or positive")
    game = oracle_position(request, ad)
    try:
        root = chance_root(game, request.chance)  # refuses a mode the position cannot be counted in
        perft(root, 0)
    except ValueError as exc:
        raise invalid("BAD_PERFT", str(exc)) from None
    if game.is_over:
        return [], 0
    actions = {} if root.player == -1 else dict(root.actions.pairs())
    rows: list[Row] = []
    for key, child, depth in perft_children(game, request.depth, request.chance):
        if cancel:
            raise ServiceError(grpc.StatusCode.CANCELLED, "CANCELLED", "the call was cancelled")
        line = oracle_pb2.PerftResponse()
        if key in actions:
            line.move.move.CopyFrom(ad.move_to_proto(key))
            line.move.action = actions[key]
        else:
            line.outcome = int(key)
        rows.append((line, child, depth))
    return rows, None


def new_limit(request: oracle_pb2.PerftRequest) -> PerftLimit:
    nodes = request.max_nodes
    return PerftLimit(nodes=MAX_PERFT_NODES if not 0 < nodes <= MAX_PERFT_NODES else nodes)


def count_child(child: AnyGame, depth: int, chance: bool, limit: PerftLimit, left: TimeLeft, cancel: Cancel) -> int:
    """Leaves `depth` decisions below one child, under the call's `limit`, within the time `left`.
    The limit's stop byte is this job's cancel flag: the caller going away, or its engine seconds or
    deadline running out, stops the core at once, inside the count rather than between root
    children."""
    limit.stop = cancel.flag
    with Stopper(left, cancel) as stopper:
        try:
            count: int = perft(child, depth, chance=chance, limit=limit)
        except PerftStopped as exc:
            if exc.reason == "STOPPED":
                raise stopper.error("the count", "ask for less depth") from None
            raise ServiceError(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "PERFT_NODE_LIMIT",
                f"the count needs more than {limit.nodes} positions expanded: ask for less depth, or a larger "
                f"max_nodes (this server's limit: {MAX_PERFT_NODES})",
                limit=str(limit.nodes),
            ) from None
    return count


def _file(game_id: str, version: str, name: str, text: bytes) -> oracle_pb2.ConformanceVectorFile:
    return oracle_pb2.ConformanceVectorFile(
        game=game_id,
        version=version,
        name=name,
        vectors=sum(1 for line in text.splitlines() if line.strip()),
        size=len(text),
        sha256=hashlib.sha256(text).hexdigest(),
    )


def _games(game_id: str) -> list[str]:
    published = vectors.games_with_vectors()
    if not game_id:
        return published
    adapter(game_id)  # UNKNOWN_GAME for a game the server does not play
    if game_id not in published:
        raise ServiceError(
            grpc.StatusCode.NOT_FOUND, "NO_VECTORS", f"{clip(game_id)!r} publishes no conformance vectors"
        )
    return [game_id]


def _versions(game_id: str) -> list[str]:
    root = vectors.vector_folder(game_id).parent
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name.startswith("v"))


def list_vectors(request: oracle_pb2.ListConformanceVectorsRequest, cancel: Any = None) -> Any:
    return _listing(request.game, tuple(hunters.games.ids()))


@functools.lru_cache(maxsize=64)
def _listing(game: str, registered: tuple[str, ...]) -> oracle_pb2.ListConformanceVectorsResponse:
    """The listing of one game's vector files (or every game's, of the games `registered`), read
    and hashed once: the files are part of the installed package and do not change while the
    server runs."""
    response = oracle_pb2.ListConformanceVectorsResponse()
    for game_id in _games(game):
        for version in _versions(game_id):
            folder = vectors.vector_folder(game_id, version)
            for name in vectors.FILES:
                if (folder / name).exists():
                    response.files.append(_file(game_id, version, name, (folder / name).read_bytes()))
    return response


def get_vectors(request: oracle_pb2.GetConformanceVectorsRequest, cancel: Any = None) -> Any:
    if not request.game:
        raise invalid("UNKNOWN_GAME", "game is required: see ListConformanceVectors")
    (game_id,) = _games(request.game)
    versions = _versions(game_id)
    version = request.version or versions[-1]
    if version not in versions or request.name not in vectors.FILES:
        raise ServiceError(
            grpc.StatusCode.NOT_FOUND,
            "NO_VECTORS",
            f"no vector file {clip(request.name)!r} of version {clip(version)!r}: see ListConformanceVectors",
        )
    return _vector_file(game_id, version, request.name)


@functools.lru_cache(maxsize=64)
def _vector_file(game_id: str, version: str, name: str) -> oracle_pb2.GetConformanceVectorsResponse:
    """One vector file with its schema, read once (as `_listing`)."""
    text = (vectors.vector_folder(game_id, version) / name).read_bytes()
    return oracle_pb2.GetConformanceVectorsResponse(
        file=_file(game_id, version, name, text),
        content=text.decode(),
        schema=vectors.SCHEMA.read_text(),
    )
