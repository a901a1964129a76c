"""`hunters conformance --engine CMD`: another engine (a child process speaking the protocol of
`hunters.conformance.protocol`) against ours, on the published vectors and on seeded random games,
until the first divergence.

Every position is played on both sides: ours in this process (the game's class from the registry),
theirs through the protocol. At each decision the legal moves are compared as sets, then one move
is played on both and its events, the scores, the seat to move and the end compared (the winners
too, when the engine reports them). A perft vector's record is played so, move by move, then its
counts are compared depth by depth; at the first wrong count the runner follows the divide down to
the position where the legal moves differ. The first divergence is reported as a minimal record (the
position: configuration and moves so far) with a readable diff; a crash, a hang (per-request
timeout) or a garbled answer of the engine is reported the same way. Nothing here names a game."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from tqdm import tqdm

import hunters
from hunters.game_base import AnyGame
from hunters.perft import perft
from hunters.wire import adapter as wire_adapter

from . import vectors
from .protocol import Engine, EngineFault
from .vectors import event_json, move_json

__all__ = ["Divergence", "Runner", "main"]

SHOWN = 5  # moves listed per side of a legal-move diff


@dataclass
class Divergence:
    """The first place the engine and ours disagree: in which `game`, `where` (vector or seeded
    game, decision), `what` differs (``legal moves``, ``events``, ``scores``, ``position``,
    ``perft``, or ``fault`` for a crash, hang or garbled answer), the readable `diff` lines, and
    the `record` of the position (configuration and the moves to it: replays it exactly)."""

    game: str
    where: str
    what: str
    diff: list[str]
    record: dict[str, Any]

    def text(self) -> str:
        lines = [f"DIVERGENCE in {self.game}, {self.where}: {self.what}"]
        lines += [f"  {line}" for line in self.diff]
        lines.append("  record of the position (replay it with `hunters replay` or `hunters perft`):")
        lines.append("  " + json.dumps(self.record, separators=(",", ":")))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "where": self.where, "what": self.what, "diff": self.diff, "record": self.record}


class Requester(Protocol):
    """What the runner asks an engine through: `protocol.Engine` (a child process), or any object
    answering the same requests (the tests' in-process engines)."""

    def request(self, op: str, **fields: Any) -> dict[str, Any]: ...


class _Found(Exception):
    def __init__(self, divergence: Divergence):
        self.divergence = divergence


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass
class Runner:
    """One engine process checked against ours on `games`: each game's vectors (those named by
    `only`, ``(game, kind, name)``, when given), then `random_games` seeded games (seed, seed + 1,
    ...; seats cycling through the game's range)."""

    engine: Requester
    games: list[str]
    random_games: int = 50
    seed: int = 1
    perft_depth: int = 3
    progress: bool = True
    only: Collection[tuple[str, str, str]] | None = None
    checked: dict[str, dict[str, int]] = field(default_factory=dict)

    def vectors(self, game_id: str, kind: str) -> list[dict[str, Any]]:
        """The game's vectors of `kind` this run checks."""
        found = vectors.load(game_id, kind)
        return found if self.only is None else [v for v in found if (game_id, kind, v["name"]) in self.only]

    def units(self, game_id: str) -> int:
        return len(self.vectors(game_id, "perft")) + len(self.vectors(game_id, "replay")) + self.random_games

    def run(self) -> Divergence | None:
        try:
            hello = self.engine.request("hello")
        except EngineFault as fault:
            return Divergence("-", "the hello request", "fault", [str(fault)], {})
        offered = set(hello.get("games") or [])
        games = [g for g in self.games if g in offered]
        self.skipped = [g for g in self.games if g not in offered]
        total = sum(self.units(g) for g in games)
        with tqdm(total=total, disable=not self.progress, unit="check", file=sys.stderr) as bar:
            for game_id in games:
                found = self._game(game_id, bar)
                if found is not None:
                    return found
        return None

    def _game(self, game_id: str, bar: Any) -> Divergence | None:
        cls = hunters.games.get(game_id)
        counts = self.checked.setdefault(game_id, {"perft": 0, "replay": 0, "random": 0, "decisions": 0})
        try:
            for v in self.vectors(game_id, "perft"):
                bar.set_description(f"{game_id} perft {v['name']}")
                self._perft(cls, v)
                counts["perft"] += 1
                bar.update()
            for v in self.vectors(game_id, "replay"):
                bar.set_description(f"{game_id} replay {v['name']}")
                moves = [cls.move_from_json(s["move"]) for s in v["steps"]]
                counts["decisions"] += self._play(cls, v["record"], iter(moves), f"replay vector {v['name']!r}")
                counts["replay"] += 1
                bar.update()
            info = cls.INFO
            seats = list(range(info.min_players, info.max_players + 1))
            for i in range(self.random_games):
                seed = (self.seed + i) % 2**64
                bar.set_description(f"{game_id} random game {seed}")
                record = cls.new(players=seats[i % len(seats)], seed=seed).to_record()
                counts["decisions"] += self._play(cls, record, None, f"seeded random game {seed}", seed)
                counts["random"] += 1
                bar.update()
        except _Found as found:
            return found.divergence
        return None

    # -- one game, decision by decision -----------------------------------------------------
    def _ask(self, game_id: str, where: str, position: dict[str, Any], op: str, **fields: Any) -> dict[str, Any]:
        try:
            return self.engine.request(op, **fields)
        except EngineFault as fault:
            raise _Found(Divergence(game_id, where, "fault", [str(fault)], position)) from None

    def _play(
        self,
        cls: type[AnyGame],
        record: dict[str, Any],
        given: Iterator[Any] | None,
        where: str,
        seed: int = 0,
        limit: int | None = None,
    ) -> int:
        """Play a game from `record`'s configuration on both sides: the `given` moves, else seeded
        random ones (ours chooses), to the end or `limit` decisions. Returns the decisions compared."""
        game_id = cls.INFO.id
        ours = cls.from_record(dict(record, moves=[]))
        rng = random.Random(seed)
        start = dict(record, moves=[])
        answer = self._ask(game_id, where, start, "new", record=start)
        self._same_position(cls, ours, answer, f"{where}, set-up", start, with_events=True)
        decision = 0
        while not ours.is_over and (limit is None or decision < limit):
            here = f"{where}, decision {decision} (seat {ours.player})"
            position = ours.to_record()
            theirs = self._ask(game_id, here, position, "legal").get("moves")
            self._same_moves(cls, ours, theirs, here, position)
            move = next(given) if given is not None else rng.choice(list(ours.legal_moves()))
            events = [event_json(e) for e in ours.play(move)]
            answer = self._ask(game_id, here, position, "play", move=move_json(move))
            if answer.get("events") != events:
                raise _Found(
                    Divergence(
                        game_id,
                        here,
                        "events",
                        [f"after {self._describe(game_id, move)}:", *self._list_diff(events, answer.get("events"))],
                        position,
                    )
                )
            self._same_position(cls, ours, answer, here + ", after its move", position, played=move)
            decision += 1
        return decision

    def _same_position(
        self,
        cls: type[AnyGame],
        ours: AnyGame,
        answer: dict[str, Any],
        where: str,
        record: dict[str, Any],
        with_events: bool = False,
        played: Any = None,
    ) -> None:
        diff = []
        if answer.get("scores") != list(ours.scores):
            diff.append(f"scores: the engine {answer.get('scores')}, ours {list(ours.scores)}")
        if bool(answer.get("over")) != ours.is_over:
            diff.append(f"game over: the engine {bool(answer.get('over'))}, ours {ours.is_over}")
        elif not ours.is_over and answer.get("player") != ours.player:
            diff.append(f"seat to move: the engine {answer.get('player')}, ours {ours.player}")
        elif ours.is_over and "winners" in answer and answer["winners"] != list(ours.winners):
            diff.append(f"winners: the engine {answer['winners']}, ours {list(ours.winners)}")
        if with_events and "events" in answer and answer["events"] != [event_json(e) for e in ours.events]:
            diff += ["events so far:", *self._list_diff([event_json(e) for e in ours.events], answer["events"])]
        if diff:
            what = "scores" if diff[0].startswith("scores") else "position"
            if played is not None:
                diff.insert(0, f"after {self._describe(cls.INFO.id, played)}:")
            raise _Found(Divergence(cls.INFO.id, where, what, diff, record))

    def _canon_moves(self, cls: type[AnyGame], moves: Any, where: str, record: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if not isinstance(moves, list):
            raise _Found(Divergence(cls.INFO.id, where, "fault", ["'legal' answered no list of moves"], record))
        for m in moves:
            try:
                move = cls.move_from_json(m)
            except (KeyError, TypeError, ValueError, AttributeError):
                raise _Found(
                    Divergence(
                        cls.INFO.id, where, "legal moves", [f"the engine lists a move that is not one: {m}"], record
                    )
                ) from None
            out[_canon(move_json(move))] = move
        return out

    def _same_moves(self, cls: type[AnyGame], ours: AnyGame, theirs: Any, where: str, record: dict[str, Any]) -> None:
        game_id = cls.INFO.id
        mine = {_canon(move_json(m)): m for m in ours.legal_moves()}
        got = self._canon_moves(cls, theirs, where, record)
        if isinstance(theirs, list) and len(theirs) != len(got):
            raise _Found(Divergence(game_id, where, "legal moves", ["the engine lists a move twice"], record))
        missing = [mine[k] for k in mine if k not in got]
        extra = [got[k] for k in got if k not in mine]
        if missing or extra:
            diff = [f"the engine has {len(got)} legal moves, ours {len(mine)}"]
            diff += self._moves_diff(game_id, missing, extra)
            raise _Found(Divergence(game_id, where, "legal moves", diff, record))

    def _moves_diff(self, game_id: str, missing: list[Any], extra: list[Any]) -> list[str]:
        lines = []
        for label, moves in (("missing (legal for us)", missing), ("extra (illegal for us)", extra)):
            if moves:
                lines.append(f"{label}: {len(moves)}")
                lines += [f"  {self._describe(game_id, m)}   {_canon(move_json(m))}" for m in moves[:SHOWN]]
                if len(moves) > SHOWN:
                    lines.append(f"  ... and {len(moves) - SHOWN} more")
        return lines

    @staticmethod
    def _describe(game_id: str, move: Any) -> str:
        try:
            return wire_adapter(game_id).describe_move(move)
        except Exception:  # a describer that cannot read this move: its JSON says it all
            return _canon(move_json(move))

    @staticmethod
    def _list_diff(ours: list[Any], theirs: Any) -> list[str]:
        if not isinstance(theirs, list):
            return [f"the engine answered {theirs!r}, ours {len(ours)} items"]
        lines = []
        for i in range(max(len(ours), len(theirs))):
            a = ours[i] if i < len(ours) else None
            b = theirs[i] if i < len(theirs) else None
            if a != b:
                lines.append(f"#{i}: ours {_canon(a) if a is not None else '(none)'}")
                lines.append(f"#{i}: the engine {_canon(b) if b is not None else '(none)'}")
        return lines or ["(the same items)"]

    # -- perft ------------------------------------------------------------------------------
    def _perft(self, cls: type[AnyGame], v: dict[str, Any]) -> None:
        game_id = cls.INFO.id
        record, chance = v["record"], v["chance"]
        where = f"perft vector {v['name']!r}" + (" (chance mode)" if chance else "")
        moves = [cls.move_from_json(m) for m in record.get("moves", [])]
        if moves:  # the way to the position first, decision by decision as in a replay
            played = self._play(cls, record, iter(moves), f"{where}, its record's moves", limit=len(moves))
            self.checked[game_id]["decisions"] += played
        self._ask(game_id, where, record, "new", record=record)
        for depth in range(1, min(v["depth"], self.perft_depth) + 1):
            got = self._ask(game_id, where, record, "perft", depth=depth, chance=chance, divide=False).get("count")
            if got != v["counts"][depth]:
                self._descend(cls, record, depth, chance, f"{where}, depth {depth}", got, v["counts"][depth])

    def _descend(
        self, cls: type[AnyGame], record: dict[str, Any], depth: int, chance: bool, where: str, got: Any, want: int
    ) -> None:
        """Follow the divide from a wrong count down to the first position whose legal moves (or
        a depth-1 count) differ; raise it as the divergence."""
        game_id = cls.INFO.id
        diff = [f"perft {depth}: the engine {got}, ours {want}"]
        while True:
            ours = cls.from_record(record)
            if depth == 1 or chance:
                self._ask(game_id, where, record, "new", record=record)
                if not chance and ours.player != -1:
                    theirs = self._ask(game_id, where, record, "legal").get("moves")
                    try:
                        self._same_moves(cls, ours, theirs, where, record)
                    except _Found as found:  # the counts that led here first
                        found.divergence.diff[:0] = diff
                        raise
                raise _Found(Divergence(game_id, where, "perft", diff, record))
            self._ask(game_id, where, record, "new", record=record)
            rows = self._ask(game_id, where, record, "perft", depth=depth, chance=False, divide=True).get("divide")
            mine = {_canon(move_json(m)): (m, n) for m, n in perft(ours, depth, divide=True)}
            theirs_rows: dict[str, Any] = {}
            for row in rows if isinstance(rows, list) else []:
                if isinstance(row, dict) and "move" in row:
                    theirs_rows[_canon(move_json(cls.move_from_json(row["move"])))] = row.get("count")
            missing = [m for k, (m, _) in mine.items() if k not in theirs_rows]
            extra = [cls.move_from_json(json.loads(k)) for k in theirs_rows if k not in mine]
            if missing or extra:
                diff += [f"divide at depth {depth}:", *self._moves_diff(game_id, missing, extra)]
                raise _Found(Divergence(game_id, where, "legal moves", diff, record))
            wrong = next(((m, n, theirs_rows[k]) for k, (m, n) in mine.items() if theirs_rows[k] != n), None)
            if wrong is None:
                diff.append(f"divide at depth {depth}: every move's count agrees, the total does not")
                raise _Found(Divergence(game_id, where, "perft", diff, record))
            move, n, their = wrong
            diff.append(f"after {self._describe(game_id, move)}: perft {depth - 1}: the engine {their}, ours {n}")
            record = dict(record, moves=[*record["moves"], move_json(move)])
            depth -= 1
            where = f"{where.split(', depth')[0]}, depth {depth} below {len(record['moves'])} moves"


def main(
    command: str,
    games: list[str],
    random_games: int = 50,
    seed: int = 1,
    timeout: float = 10.0,
    perft_depth: int = 3,
    quiet: bool = False,
    report: str | None = None,
    only: Collection[tuple[str, str, str]] | None = None,
) -> int:
    """Run the check and print what it found: 0 when the engine agrees everywhere, 1 at a
    divergence (printed, and written as JSON to `report` when given)."""
    try:
        engine = Engine(command, timeout=timeout)
    except EngineFault as fault:
        print(f"hunters conformance: {fault}", file=sys.stderr)
        return 1
    runner = Runner(
        engine, games, random_games=random_games, seed=seed, perft_depth=perft_depth, progress=not quiet, only=only
    )
    try:
        found = runner.run()
    finally:
        engine.close()
    for game_id, c in runner.checked.items():
        print(
            f"{game_id}: {c['perft']} perft vectors (depth <= {perft_depth}), {c['replay']} replays, "
            f"{c['random']} seeded random games, {c['decisions']} decisions compared"
        )
    for game_id in getattr(runner, "skipped", []):
        print(f"{game_id}: not offered by the engine (hello), skipped")
    if report:
        with open(report, "w") as out:
            json.dump(found.to_json() if found else None, out, indent=1)
    if found is None:
        print("no divergence")
        return 0
    print(found.text())
    return 1
