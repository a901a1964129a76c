"""The blocking client's calls of the oracle and of game information (`hunters.client.Client`
has them, with the calls of matches): positions evaluated, analysed and counted, random games,
conformance vectors, the games served."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator
from typing import Any, TypeVar

from hunters.clienttypes import Analysis
from hunters.clientwire import ATTEMPTS, Call, Calls, Position
from hunters.v1 import games_pb2, oracle_pb2

__all__ = ["OracleCalls"]

T = TypeVar("T")


class OracleCalls:
    """OracleService's and GameService's calls, over the client's `_run` (a unary call with its
    deadline and retries) and `_stream` (a server stream read)."""

    calls: Calls
    timeout: float

    def _run(self, call: Call[T], attempts: int = ATTEMPTS) -> T:
        raise NotImplementedError

    def _stream(self, call: Call[T], timeout: float | None) -> Generator[T, None, None]:
        raise NotImplementedError

    # -- oracle ------------------------------------------------------------------------------
    def analyze(
        self,
        match_id: str = "",
        *,
        version: int | None = None,
        seat: int | None = None,
        token: str | None = None,
        game: str = "",
        players: int = 0,
        moves: Iterable[Any] = (),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        top_k: int = 0,
        iterations: int = 0,
    ) -> Analysis:
        """A position analysed by the server's strong search, from `seat`'s view (docs/review.md): a
        stored match (`match_id`, at `version`, default the latest; before its end only a seat's own
        view, with that seat's `token`, in a match created with hints), or a position sent (`game`,
        `players`, `moves`, `seed` or `options`). `top_k` moves are listed (0: 5), best first;
        `iterations` (0: the strong bot's default) make it deterministic."""
        position = Position(match_id, version, token, game, players, tuple(moves), seed, options)
        return self._run(self.calls.analyze(position, seat, top_k, iterations))

    def evaluate(
        self,
        game: str,
        players: int,
        moves: list[Any],
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        include_legal_moves: bool = False,
    ) -> oracle_pb2.EvaluateResponse:
        return self._run(self.calls.evaluate(game, players, moves, seed, options, include_legal_moves))

    def simulate(
        self, game: str, players: int, games: int, seed: int = 0, timeout: float | None = None
    ) -> Iterator[oracle_pb2.SimulateGamesResponse]:
        """Random games in the server's core: progress about every 5% of the games, the last `done`."""
        return self._stream(self.calls.simulate(game, players, games, seed), timeout)

    def perft(
        self,
        game: str,
        players: int,
        depth: int,
        moves: Iterable[Any] = (),
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        chance: bool = False,
        divide: bool = False,
        max_nodes: int = 0,
        timeout: float | None = None,
    ) -> Iterator[oracle_pb2.PerftResponse]:
        """The leaves `depth` decisions below the position the moves reach, counted in the server's
        core: with `divide`, one line per root child first; the last message (``done``) is the total.
        `timeout`: its deadline in seconds (default: the client's); the server stops the count there."""
        call = self.calls.perft(game, players, depth, moves, seed, options, chance, divide, max_nodes)
        return self._stream(call, self.timeout if timeout is None else timeout)

    def conformance_vectors(self, game: str = "") -> list[oracle_pb2.ConformanceVectorFile]:
        """The conformance vector files the server publishes (one game's, or every game's)."""
        return self._run(self.calls.conformance_vectors(game))

    def conformance_vector_file(self, game: str, name: str, version: str = "") -> list[dict[str, Any]]:
        """One vector file's vectors (JSON lines parsed; docs/conformance.md)."""
        return self._run(self.calls.conformance_vector_file(game, name, version))

    # -- game information ----------------------------------------------------------------------
    def list_games(self) -> list[games_pb2.GameSummary]:
        """Every game the server plays: id, name, player range, action-space size."""
        return self._run(self.calls.list_games())

    def game_info(self, game: str) -> games_pb2.GetGameInfoResponse:
        """A game's action layout and static data (tiles, board)."""
        return self._run(self.calls.game_info(game))
