"""The arena: matches between bots, seats rotated, in worker processes; results and ratings.

Lineups: with B bots and N seats, every ordered choice of N distinct bots (B ≥ N), or the N
rotations of the bots repeated to N seats (B < N). Game i plays lineup i mod L on deal i div L
(game seed = seed + i div L), so every lineup plays the same deals: each bot plays each seat
equally often when the number of games is a multiple of L, and luck of the deal cancels out.
A bot is built per game and seat from its spec; a spec without `seed` gets one derived from the
game index and seat, so games differ and the whole run is reproducible for any --jobs.
A bot that raises or returns an illegal move forfeits the game: it stops there, the forfeiting seat
wins nothing and the others share the win by score; the result says who forfeited and why.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import hunters
from hunters.scale import Executor, chunks, ordered

from . import make_bot
from .base import Observation
from .external import command_of, is_external, play_served_game
from .ratings import elo_ratings, mean_interval, wilson_interval
from .results import GameResult, game_result, seeded_bot

__all__ = ["ArenaResult", "BotStats", "GameResult", "lineups", "play_game", "pooled", "run_arena"]


def lineups(nbots: int, players: int) -> list[tuple[int, ...]]:
    """The seatings of an arena (bot index by seat), in the order games cycle through them."""
    if nbots < 1 or players < 1:
        raise ValueError("need at least one bot and one seat")
    if nbots >= players:
        return list(itertools.permutations(range(nbots), players))
    base = [i % nbots for i in range(players)]
    return [tuple(base[(s + r) % players] for s in range(players)) for r in range(players)]


def play_game(
    game_id: str,
    players: int,
    specs: Sequence[str],
    lineup: Sequence[int],
    seed: int,
    index: int = 0,
    arena_seed: int = 0,
    keep_record: bool = False,
    options: dict[str, Any] | None = None,
) -> GameResult:
    """Play one game between built-in bots (seat p: specs[lineup[p]]) and return its result."""
    cls = hunters.games.get(game_id)
    game = cls.new(players=players, seed=seed, **(options or {}))
    bots = [seeded_bot(specs[b], index, p, arena_seed) for p, b in enumerate(lineup)]
    think = [0.0] * players
    decisions = [0] * players
    forfeit = None
    while not game.is_over:
        seat = game.player
        t0 = time.perf_counter()
        try:
            move = bots[seat].choose(Observation.of(game, seat))
            reason = None if game.is_legal(move) else f"illegal move {move!r}"
        except Exception as exc:  # a failing bot forfeits; the arena goes on
            reason = f"{type(exc).__name__}: {exc}"
        think[seat] += time.perf_counter() - t0
        if reason is not None:
            forfeit = {"seat": seat, "bot": specs[lineup[seat]], "reason": reason}
            break
        decisions[seat] += 1
        game.play(move)
    return game_result(index, seed, lineup, game, think, decisions, forfeit, keep_record)


@dataclass
class BotStats:
    """One bot's line of the arena table."""

    bot: str
    games: int
    wins: float
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_score: float
    mean_score_low: float
    mean_score_high: float
    elo: float
    elo_low: float
    elo_high: float
    seconds_per_move: float
    forfeits: int


@dataclass
class ArenaResult:
    """All games of an arena and what follows from them."""

    game: str
    players: int
    bots: list[str]
    seed: int
    results: list[GameResult]
    seconds: float = 0.0
    jobs: int = 1

    def stats(self, bootstrap: int = 200) -> list[BotStats]:
        n = len(self.bots)
        games = [0] * n
        wins = [0.0] * n
        scores: list[list[float]] = [[] for _ in range(n)]
        think = [0.0] * n
        decisions = [0] * n
        forfeits = [0] * n
        for r in self.results:
            for seat, (b, share) in enumerate(zip(r.lineup, r.win_shares(), strict=True)):
                games[b] += 1
                wins[b] += share
                scores[b].append(r.scores[seat])
                think[b] += r.think_seconds[seat]
                decisions[b] += r.decisions[seat]
            if r.forfeit is not None:
                forfeits[r.lineup[r.forfeit["seat"]]] += 1
        elo, elo_ci = elo_ratings(
            [(r.lineup, [*r.win_shares()] if r.forfeit else r.scores) for r in self.results],
            n,
            bootstrap=bootstrap,
            seed=self.seed,
        )
        out = []
        for b in range(n):
            lo, hi = wilson_interval(wins[b], games[b])
            m, mlo, mhi = mean_interval(scores[b])
            out.append(
                BotStats(
                    self.bots[b],
                    games[b],
                    wins[b],
                    wins[b] / games[b] if games[b] else 0.0,
                    lo,
                    hi,
                    m,
                    mlo,
                    mhi,
                    elo[b],
                    elo_ci[b][0],
                    elo_ci[b][1],
                    think[b] / decisions[b] if decisions[b] else 0.0,
                    forfeits[b],
                )
            )
        return out

    def table(self) -> str:
        """The results as a readable table."""
        rows = self.stats()
        width = max(12, *(len(s.bot) for s in rows))
        lines = [
            f"{self.game}: {len(self.results)} games, {self.players} players, {len(self.bots)} bots, "
            f"seats rotated over {len(lineups(len(self.bots), self.players))} lineups, seed {self.seed}, "
            f"{self.seconds:.1f} s with {self.jobs} job(s)",
            f"{'bot':<{width}}  {'games':>5}  {'win rate':>8}  {'95% interval':>15}  {'mean score':>10}  "
            f"{'95% interval':>15}  {'Elo':>6}  {'95% interval':>15}  {'s/move':>8}",
        ]
        for s in rows:
            lines.append(
                f"{s.bot:<{width}}  {s.games:>5}  {s.win_rate:>8.1%}  "
                f"{f'{s.win_rate_low:.1%}–{s.win_rate_high:.1%}':>15}  {s.mean_score:>10.1f}  "
                f"{f'{s.mean_score_low:.1f}–{s.mean_score_high:.1f}':>15}  {s.elo:>6.0f}  "
                f"{f'{s.elo_low:.0f}–{s.elo_high:.0f}':>15}  {s.seconds_per_move:>8.4f}"
                + (f"  ({s.forfeits} forfeits)" if s.forfeits else "")
            )
        forfeits = [(r.index, r.forfeit) for r in self.results if r.forfeit is not None]
        for index, f in forfeits[:10]:
            lines.append(f"game {index}: seat {f['seat']} ({f['bot']}) forfeited: {f['reason']}")
        if len(forfeits) > 10:
            lines.append(f"... {len(forfeits) - 10} more forfeits")
        return "\n".join(lines)

    def margins(self, a: int = 0, b: int = 1) -> list[int]:
        """Bot `a`'s score minus bot `b`'s in every game where both sat."""
        out = []
        for r in self.results:
            if a in r.lineup and b in r.lineup:
                out.append(r.scores[r.lineup.index(a)] - r.scores[r.lineup.index(b)])
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaResult:
        """A result read back from `to_json()` (an arena's --json file; records are not in it)."""
        names = {f.name for f in fields(GameResult)}
        results = [GameResult(**{k: v for k, v in r.items() if k in names}) for r in data["results"]]
        return cls(
            data["game"], data["players"], list(data["bots"]), data["seed"], results, data["seconds"], data["jobs"]
        )

    def to_json(self) -> dict[str, Any]:
        """Summary and every game's result (records left out: see `write_records`)."""
        return {
            "game": self.game,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games": len(self.results),
            "seconds": self.seconds,
            "jobs": self.jobs,
            "stats": [asdict(s) for s in self.stats()],
            "results": [{k: v for k, v in asdict(r).items() if k != "record"} for r in self.results],
        }

    def to_csv(self) -> str:
        """One row per bot."""
        buf = io.StringIO()
        rows = [asdict(s) for s in self.stats()]
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]) if rows else ["bot"], lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return buf.getvalue()

    def write_records(self, directory: str) -> int:
        """Write game-<index>.json (record, bots by seat, scores, winners, forfeit) for every game
        that kept its record; return how many."""
        os.makedirs(directory, exist_ok=True)
        n = 0
        for r in self.results:
            if r.record is None:
                continue
            data = {
                "record": r.record,
                "bots": [self.bots[b] for b in r.lineup],
                "scores": r.scores,
                "winners": r.winners,
                "forfeit": r.forfeit,
                "arena_seed": self.seed,
                "index": r.index,
            }
            with open(os.path.join(directory, f"game-{r.index:05d}.json"), "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            n += 1
        return n


def pooled(runs: Sequence[ArenaResult]) -> ArenaResult:
    """The games of several runs of one arena (the same game, seats and bots) as one result, in
    order, renumbered; its seed and jobs are the first run's, its seconds their sum. ValueError
    when the runs differ in what they pit, or two of them played one deal with one seating (the
    pool would count that game twice)."""
    if not runs:
        raise ValueError("nothing to pool")
    first = runs[0]
    seen: set[tuple[int, tuple[int, ...]]] = set()
    results: list[GameResult] = []
    for run in runs:
        if (run.game, run.players, run.bots) != (first.game, first.players, first.bots):
            raise ValueError(
                f"cannot pool {run.game} with {run.players} seats and bots {run.bots} into "
                f"{first.game} with {first.players} seats and bots {first.bots}"
            )
        for r in run.results:
            deal = (r.seed, tuple(r.lineup))
            if deal in seen:
                raise ValueError(f"two runs played deal {r.seed} with seating {list(r.lineup)}")
            seen.add(deal)
            results.append(replace(r, index=len(results)))
    return ArenaResult(
        first.game, first.players, first.bots, first.seed, results, sum(r.seconds for r in runs), first.jobs
    )


def _task(args: tuple[Any, ...]) -> GameResult:
    return play_game(*args)


def _tasks_unit(tasks: list[tuple[Any, ...]]) -> list[GameResult]:
    """Several games, one unit of work for `hunters.scale` (each game is fixed by its own task)."""
    return [play_game(*t) for t in tasks]


def _served_task(args: tuple[Any, ...]) -> GameResult:
    result: GameResult = play_served_game(*args)
    return result


def run_arena(
    game_id: str,
    players: int,
    specs: Sequence[str],
    games: int,
    *,
    jobs: int = 1,
    seed: int = 0,
    keep_records: bool = False,
    options: dict[str, Any] | None = None,
    progress: Callable[[Iterator[GameResult], int], Iterator[GameResult]] | None = None,
    address: str | None = None,
    move_time: float = 10.0,
    executor: Executor | None = None,
) -> ArenaResult:
    """Play `games` games (see the module docstring) on `jobs` worker processes (1: in this
    process). `progress` wraps the stream of finished games (e.g. a tqdm bar).

    With external bots (``cmd:...`` specs, see `hunters.bots.external`) every game is a match on the
    server at `address` (default: an embedded server on a free port), `jobs` games at a time
    (threads: the programs are processes of their own), `move_time` seconds per move.

    With an `executor` (`hunters.scale`: e.g. a Ray cluster) the games of built-in bots run there, in
    units of a few consecutive games, instead of on `jobs` processes: every game is fixed by its index
    and seeds, so the results are those of a local run."""
    cls = hunters.games.get(game_id)
    cls.INFO.check_players(players)
    if type(games) is not int or games < 1:
        raise ValueError("games must be an int >= 1")
    if type(jobs) is not int or jobs < 1:
        raise ValueError("jobs must be an int >= 1")
    if not isinstance(move_time, int | float) or move_time <= 0:
        raise ValueError("move_time must be > 0")
    specs = list(specs)
    if not specs:
        raise ValueError("give at least one bot")
    for spec in specs:  # refuse bad specs before any game starts
        if is_external(spec):
            if not command_of(spec, address="", match="", token="", seat=0, game="", players=0):
                raise ValueError(f"{spec!r} names no program")
        else:
            make_bot(spec)
    seats = lineups(len(specs), players)
    served = any(is_external(s) for s in specs)
    if served and executor is not None:
        raise ValueError("external bots (cmd:...) play on this machine only, not on a cluster")
    t0 = time.perf_counter()
    results: list[GameResult] = []
    if not served:
        tasks = [
            (game_id, players, specs, seats[i % len(seats)], seed + i // len(seats), i, seed, keep_records, options)
            for i in range(games)
        ]
        if executor is not None:
            jobs = executor.workers
            size = max(1, min(8, games // (4 * jobs)))  # ≥ 4 units per worker
            units = [(tasks[first : first + count],) for first, count in chunks(games, size)]
            stream: Iterator[GameResult] = itertools.chain.from_iterable(ordered(executor, _tasks_unit, units))
            results = list(progress(stream, games) if progress else stream)
        elif jobs == 1:
            stream = map(_task, tasks)
            results = list(progress(stream, games) if progress else stream)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(_task, t) for t in tasks]
                stream = (f.result() for f in as_completed(futures))
                results = list(progress(stream, games) if progress else stream)
    else:
        with contextlib.ExitStack() as stack:
            if address is None:
                from hunters.service import ServerConfig, create_server

                tmp = stack.enter_context(tempfile.TemporaryDirectory())
                server = create_server(ServerConfig(address="127.0.0.1:0", db=os.path.join(tmp, "arena.db")))
                stack.callback(server.stop, 0)
                address = f"127.0.0.1:{server.port}"
            served_tasks = [
                (
                    address,
                    game_id,
                    players,
                    specs,
                    seats[i % len(seats)],
                    seed + i // len(seats),
                    i,
                    seed,
                    keep_records,
                    options,
                    float(move_time),
                )
                for i in range(games)
            ]
            with ThreadPoolExecutor(max_workers=jobs) as threads:
                futures = [threads.submit(_served_task, t) for t in served_tasks]
                stream = (f.result() for f in as_completed(futures))
                results = list(progress(stream, games) if progress else stream)
    results.sort(key=lambda r: r.index)
    return ArenaResult(game_id, players, specs, seed, results, time.perf_counter() - t0, jobs)
