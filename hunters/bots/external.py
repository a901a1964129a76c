"""External bots are programs: ``cmd:./mybot {address} {match} {token} {seat}``.

For a game with such a seat, the arena creates the match on a server (embedded on a free port unless
an address is given), starts each program with the placeholders filled in ({address}, {match},
{token}, {seat}, {game}, {players}) and lets it play through the gRPC API with its seat token; the
built-in bots of the other seats play through the same API. The arena follows the match's watch
stream and mirrors it on a local game (it made the match, so it knows the seed). A program that
does not move within the per-move time limit, exits before the end, or makes the match diverge
forfeits the game (the server refuses an illegal move, so a program that tries one either tries
again within its time or forfeits); the arena stops it and goes on.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

import hunters
from hunters.client import Client

from .base import Observation
from .results import game_result, seeded_bot

__all__ = ["CMD_PREFIX", "is_external", "play_served_game"]

CMD_PREFIX = "cmd:"


def is_external(spec: str) -> bool:
    return spec.startswith(CMD_PREFIX)


def command_of(spec: str, **values: Any) -> list[str]:
    """The argument list of a ``cmd:`` spec with its placeholders filled in."""
    try:
        return [part.format(**values) for part in shlex.split(spec[len(CMD_PREFIX) :])]
    except (KeyError, IndexError, ValueError) as exc:
        raise ValueError(f"bad command in {spec!r}: {exc}") from None


def _follow(client: Client, match_id: str, out: queue.Queue[Any]) -> None:
    try:
        for ev in client.watch(match_id, 0):
            out.put(ev)
            if ev.match_over:
                break
    except Exception as exc:  # the stream ended badly: the waiting side reports it
        out.put(exc)
    out.put(None)


def play_served_game(
    address: str,
    game_id: str,
    players: int,
    specs: Sequence[str],
    lineup: Sequence[int],
    seed: int,
    index: int,
    arena_seed: int,
    keep_record: bool,
    options: dict[str, Any] | None,
    move_time: float,
) -> Any:
    """One arena game played on a server (see the module docstring); returns a GameResult."""
    cls = hunters.games.get(game_id)
    game = cls.new(players=players, seed=seed, **(options or {}))
    procs: dict[int, subprocess.Popen[bytes]] = {}
    logs: dict[int, Any] = {}
    think = [0.0] * players
    decisions = [0] * players
    forfeit: dict[str, Any] | None = None
    with Client(address) as client:
        info = client.create_match(game_id, players, seed=seed, options=options)
        events: queue.Queue[Any] = queue.Queue()
        follower = threading.Thread(target=_follow, args=(client, info.match_id, events), daemon=True)
        follower.start()
        bots = {}
        try:
            for seat, b in enumerate(lineup):
                if is_external(specs[b]):
                    argv = command_of(
                        specs[b],
                        address=address,
                        match=info.match_id,
                        token=info.seat_tokens[seat],
                        seat=seat,
                        game=game_id,
                        players=players,
                    )
                    logs[seat] = tempfile.TemporaryFile()  # noqa: SIM115 (closed in the finally below)
                    procs[seat] = subprocess.Popen(
                        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=logs[seat]
                    )
                else:
                    bots[seat] = seeded_bot(specs[b], index, seat, arena_seed)
            while not game.is_over:
                seat = game.player
                t0 = time.perf_counter()
                reason = None
                if seat in bots:
                    move = bots[seat].choose(Observation.of(game, seat))
                    client.play(
                        info.match_id,
                        move,
                        token=info.seat_tokens[seat],
                        expected_version=game.moves_played,
                        changes_only=True,  # the arena follows the match on its watch stream
                    )
                deadline = t0 + (move_time if seat in procs else max(move_time, 60.0))
                ev = None
                while reason is None:
                    try:
                        ev = events.get(timeout=0.05)
                    except queue.Empty:
                        if seat in procs and procs[seat].poll() is not None:
                            reason = f"exited with status {procs[seat].returncode}: {_tail(logs[seat])}"
                        elif time.perf_counter() > deadline:
                            reason = f"no move within {move_time:g} s"
                        continue
                    if ev is None or isinstance(ev, Exception):
                        reason = f"the match stream ended: {ev}"
                    elif ev.version > game.moves_played:
                        break
                think[seat] += time.perf_counter() - t0
                if reason is not None or ev is None:
                    forfeit = {"seat": seat, "bot": specs[lineup[seat]], "reason": reason}
                    break
                if ev.seat != seat or not game.is_legal(ev.move):
                    forfeit = {"seat": seat, "bot": specs[lineup[seat]], "reason": "the match diverged"}
                    break
                decisions[seat] += 1
                game.play(ev.move)
        finally:
            for p in procs.values():
                if p.poll() is None:
                    p.terminate()
                    try:
                        p.wait(2)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait()
            for f in logs.values():
                f.close()
    return game_result(index, seed, lineup, game, think, decisions, forfeit, keep_record)


def _tail(f: Any, limit: int = 300) -> str:
    f.seek(0)
    text = f.read().decode("utf-8", "replace").strip()
    return text[-limit:] if text else "(no output)"
