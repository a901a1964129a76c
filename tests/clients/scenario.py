"""The client conformance scenario (clients/scenario/scenario.json) run by the Python clients: one
line a step on stdout, the transcript that every client of the project must print alike
(clients/scenario/README.md says what each op does and prints).

    python -m tests.clients.scenario ADDRESS [--aio] [--scenario PATH]

The steps are written once, on asyncio: `--aio` runs them on `hunters.aio.AsyncClient`, without it
on the blocking `hunters.client.Client` behind the same interface (`Blocking`). A gRPC interceptor
(`Hook`) counts each call's tries and loses replies where a step asks it to, so that a retry is
seen in the transcript."""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hunters.aio import AsyncClient
from hunters.client import Client, MatchEvent, MatchInfo, SeatPlayed, SeatRefused, ServiceError, Turn
from hunters.v1 import matches_pb2, state_pb2

from .hooks import AsyncHook, Blocking, BlockingHook, Hook
from .review_ops import ReviewOps

SCENARIO = Path(__file__).resolve().parents[2] / "clients" / "scenario" / "scenario.json"

# The RPC whose tries a step counts: its op's own (not the lookups a client makes on the way).
RPC_OF = {
    "play": "PlayMove",
    "delete_match": "DeleteMatch",
    "get_match": "GetMatch",
    "create_match": "CreateMatch",
    "list_matches": "ListMatches",
    "all_matches": "ListMatches",
}
COUNTED = {"play", "delete_match"}  # ops that print their tries (and every op on the gone server)
KINDS = {MatchEvent: "event", Turn: "turn", SeatPlayed: "played", SeatRefused: "refused"}  # of a seat stream's items


def value(v: Any) -> str:
    """A field's value as the transcript writes it."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return ",".join(str(x) for x in v) or "-"
    return str(v)


def span(versions: set[int]) -> str:
    """`0..N` for the versions 0 to N each once, else the sorted list."""
    if versions and versions == set(range(max(versions) + 1)):
        return f"0..{max(versions)}"
    return value(sorted(versions))


def error_text(err: ServiceError) -> str:
    """The error's one line; a status the server did not send (its reason is the code's name) is
    written without its message, which is the gRPC library's own."""
    code = err.code.name
    text = f"{code} {err.reason}" if err.reason == code else str(err)
    meta = ",".join(f"{k}={v}" for k, v in sorted(err.metadata.items()))
    return text + (f" | {meta}" if meta else "")


class Failed(Exception):
    """A step's error, with the fields the step had when it failed."""

    def __init__(self, err: ServiceError, fields: list[tuple[str, Any]]):
        self.err, self.fields = err, fields


class Run(ReviewOps):
    """One run of the scenario by one client (`client`, and `gone` speaking to no server); the ops of
    analyses and reviews are `ReviewOps`'."""

    def __init__(self, client: Any, gone: Any, hook: Hook, out: Callable[[str], None]):
        self.client, self.gone, self.hook, self.out = client, gone, hook, out
        self.matches: dict[str, MatchInfo] = {}
        self.labels: dict[str, str] = {}
        self.legal: dict[tuple[str, int], Any] = {}
        self.next_token = ""
        self.more: list[tuple[str, ServiceError]] = []  # further lines of the step being run

    def canon(self, text: str) -> str:
        for match_id, label in self.labels.items():
            text = text.replace(match_id, f"<{label}>")
        return text

    def label(self, match_id: str) -> str:
        return self.labels.get(match_id, "?")

    async def run(self, steps: list[dict[str, Any]]) -> None:
        for step in steps:
            self.hook.reset()
            c = self.gone if step.get("server") == "gone" else self.client
            counted = step["op"] in COUNTED or step.get("server") == "gone"
            error: ServiceError | None = None
            try:
                fields = await getattr(self, step["op"])(c, step)
            except Failed as failed:
                fields, error = failed.fields, failed.err
            except ServiceError as refused:
                fields, error = [], refused
            if counted:
                fields = [*fields, ("attempts", len(self.hook.requests(RPC_OF[step["op"]])))]
            words = [f"{step['name']}:", "ok" if error is None else "error", *(f"{k}={value(v)}" for k, v in fields)]
            if error is not None:
                words += ["|", error_text(error)]
            self.out(self.canon(" ".join(words)))
            for name, more in self.more:
                self.out(self.canon(f"{step['name']} {name}: error | {error_text(more)}"))
            self.more = []

    # -- helpers ---------------------------------------------------------------------------------
    def match_id(self, step: dict[str, Any]) -> str:
        return step["match_id"] if "match_id" in step else self.matches[step["match"]].match_id

    def token(self, step: dict[str, Any]) -> str:
        name = step.get("token", "")
        m = self.matches.get(step.get("match", ""))
        if m is not None and name.startswith("seat") and name[4:].isdigit():
            return m.seat_tokens[int(name[4:])]
        if m is not None and name == "admin":
            return m.admin_token
        return str(name)

    @staticmethod
    def index(version: int, n: int, offset: int = 0) -> int:
        return (version * 7 + 3 + offset) % n

    async def chosen(self, c: Any, step: dict[str, Any]) -> tuple[Any, int]:
        """The (move, action) the step plays: picked from the legal moves at `pick_at` (listed by an
        earlier step) or at the match's version now."""
        label = step["match"]
        if "pick_at" in step:
            legal = self.legal[(label, step["pick_at"])]
        else:
            legal = await c.legal_moves(self.matches[label].match_id)
            self.legal[(label, legal.version)] = legal
        move, action = legal[self.index(legal.version, len(legal), step.get("offset", 0))]
        return move, action

    @staticmethod
    def state_fields(state: Any) -> list[tuple[str, Any]]:
        return [("scores", list(state.scores)), ("winners", list(state.winners))]

    # -- ops ---------------------------------------------------------------------------------------
    async def list_games(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        return [("games", sorted(g.game for g in await c.list_games()))]

    async def game_info(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        info = await c.game_info(step["game"])
        s = info.summary
        return [
            ("game", s.game),
            ("players", f"{s.min_players}..{s.max_players}"),
            ("action_space", s.action_space_size),
            ("details", info.WhichOneof("details")),
        ]

    async def create_match(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        bots = {int(seat): spec for seat, spec in step.get("bots", {}).items()}
        m = await c.create_match(
            step["game"], step["players"], seed=step.get("seed"), bots=bots or None, hints=step.get("hints", False)
        )
        if "as" in step:
            self.matches[step["as"]] = m
            self.labels[m.match_id] = step["as"]
        return [
            ("game", m.game),
            ("version", m.version),
            ("players", m.players),
            ("status", matches_pb2.MatchStatus.Name(m.status).removeprefix("MATCH_STATUS_")),
            ("bots", [f"{seat}:{spec}" for seat, spec in sorted(m.bots.items())]),
            ("seat_tokens", len(m.seat_tokens)),
            ("admin_token", bool(m.admin_token)),
        ]

    async def get_match(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        m = await c.get_match(self.match_id(step))
        return [
            ("game", m.game),
            ("version", m.version),
            ("player", m.state.player),
            ("status", matches_pb2.MatchStatus.Name(m.status).removeprefix("MATCH_STATUS_")),
            *self.state_fields(m.state),
            ("seed", "hidden" if m.seed is None else m.seed),
            ("bots", [f"{seat}:{spec}" for seat, spec in sorted(m.bots.items())]),
            ("hints", m.config.hints),
        ]

    async def legal_moves(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        legal = await c.legal_moves(self.match_id(step))
        self.legal[(step["match"], legal.version)] = legal
        return [("version", legal.version), ("player", legal.player), ("moves", len(legal))]

    async def play(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        kwargs: dict[str, Any] = {"token": self.token(step)}
        for key in ("expected_version", "request_id"):
            if key in step:
                kwargs[key] = step[key]
        move = None
        if "action" in step:
            kwargs["action"] = step["action"]
        else:
            move, action = await self.chosen(c, step)
            if step["by"] == "action":
                kwargs["action"], move = action, None
        if "lose_replies" in step:
            self.hook.lose("PlayMove", step["lose_replies"])
        r = await c.play(self.match_id(step), move, **kwargs)
        fields = [("version", r.version), ("over", r.is_over), ("winners", list(r.winners))]
        ids = {p.request_id for p in self.hook.requests("PlayMove")}
        if len(self.hook.requests("PlayMove")) > 1:
            fields.append(("same_request_id", len(ids) == 1 and "" not in ids))
        return fields

    async def wait_turn(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        ev = await c.wait_turn(self.match_id(step), step["seat"], step["from"])
        if ev is None:
            return [("ended", True)]
        return [("version", ev.version), ("player", ev.state.player), ("over", ev.match_over)]

    async def watch(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        seen: set[int] = set()
        timeout = step["timeout_ms"] / 1000 if "timeout_ms" in step else None
        try:
            async for ev in c.watch(self.match_id(step), step["from"], timeout):
                seen.add(ev.version)
        except ServiceError as err:
            raise Failed(err, [("versions", span(seen))] if seen else []) from None
        return [("versions", span(seen))]

    async def get_record(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        token = self.token(step) if "token" in step else None
        record = await c.get_record(self.match_id(step), token)
        return [("moves", len(record["moves"])), ("seed", record.get("seed")), ("players", record["players"])]

    async def delete_match(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        if "lose_replies" in step:
            self.hook.lose("DeleteMatch", step["lose_replies"])
        await c.delete_match(self.match_id(step), self.token(step))
        return []

    async def list_matches(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        token = self.next_token if step.get("page_token") == "next" else step.get("page_token", "")
        page = await c.list_matches(step.get("game", ""), step.get("page_size", 50), token)
        self.next_token = page.next_page_token
        return [("matches", [self.label(m.match_id) for m in page.matches]), ("next", bool(page.next_page_token))]

    async def all_matches(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        found = [m async for m in c.all_matches(step.get("game", ""), step.get("page_size", 50))]
        return [("matches", [self.label(m.match_id) for m in found]), ("pages", len(self.hook.requests("ListMatches")))]

    async def seat_open(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        async with c.seat(self.match_id(step), self.token(step), resume_version=step.get("resume_version")) as s:
            async for item in s:
                return [("first", KINDS[type(item)])]
        return [("first", "-")]

    async def play_by_unary(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        match_id, version, moves = self.match_id(step), step["from"], 0
        token = self.matches[step["match"]].seat_tokens[step["seat"]]
        while True:
            ev = await c.wait_turn(match_id, step["seat"], version)
            if ev is None or ev.match_over:
                break
            legal = await c.legal_moves(match_id)
            move, action = legal[self.index(legal.version, len(legal))]
            by_move = legal.version % 2 == 0  # structured moves and action codes in turn
            r = await c.play(
                match_id,
                move if by_move else None,
                action=None if by_move else action,
                token=token,
                expected_version=legal.version,
                changes_only=True,
            )
            moves, version = moves + 1, r.version
            if r.is_over:
                break
        end = await c.get_match(match_id)
        return [
            ("moves", moves),
            ("version", end.version),
            ("over", end.state.status == state_pb2.GAME_STATUS_OVER),
            *self.state_fields(end.state),
        ]

    async def play_by_seat_stream(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        match_id, token = self.match_id(step), self.token(step)
        moves = played = retried = reconnects = 0
        refused: list[ServiceError] = []
        seen: set[int] = set()
        last: MatchEvent | None = None
        illegal_sent, resume = False, None
        retries_due = 1 if "resend_move" in step else 0
        while True:
            reopen = False
            async with c.seat(match_id, token, resume_version=resume) as stream:
                async for item in stream:
                    if isinstance(item, MatchEvent):
                        seen.add(item.version)
                        last = item
                    elif isinstance(item, SeatPlayed):
                        retried, played = (retried + 1, played) if item.retried else (retried, played + 1)
                        if (
                            not reconnects
                            and played >= step["reconnect_after_moves"]
                            and retried >= retries_due
                            and played == moves
                        ):
                            reopen = True
                            break
                    elif isinstance(item, SeatRefused):
                        refused.append(item.error)
                    elif isinstance(item, Turn):
                        if not illegal_sent and moves + 1 == step.get("illegal_at_move"):
                            await stream.play(item, action=step["illegal_action"])
                            illegal_sent = True
                            continue
                        action = item.actions[self.index(item.version, len(item.actions))]
                        request_id = f"seat-{item.version}"
                        await stream.play(item, action=action, request_id=request_id)
                        moves += 1
                        if moves == step.get("resend_move"):
                            await stream.play(item, action=action, request_id=request_id)
            if not reopen:
                break
            reconnects, resume = reconnects + 1, stream.version
        self.more = [("refused", err) for err in refused]
        assert last is not None, "the seat stream sent no version"
        return [
            ("moves", moves),
            ("played", played),
            ("retried", retried),
            ("refused", len(refused)),
            ("reconnects", reconnects),
            ("versions", span(seen)),
            ("over", last.match_over),
            *self.state_fields(last.state),
        ]

    async def perft(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        lines = [
            r
            async for r in c.perft(
                step["game"],
                step["players"],
                step["depth"],
                seed=step.get("seed"),
                max_nodes=step.get("max_nodes", 0),
                timeout=step["timeout_ms"] / 1000,
            )
        ]
        return [("total", lines[-1].count), ("lines", len(lines))]

    async def evaluate(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        r = await c.evaluate(step["game"], step["players"], [], seed=step.get("seed"), include_legal_moves=True)
        return [("legal", r.legal), ("player", r.state.player), ("legal_moves", len(r.legal_moves))]

    async def simulate(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        progress = [p async for p in c.simulate(step["game"], step["players"], step["games"], step["seed"])]
        p = progress[-1]
        return [("games", p.games_done), ("moves", p.moves), ("wins", list(p.wins)), ("done", p.done)]

    async def conformance_vectors(self, c: Any, step: dict[str, Any]) -> list[tuple[str, Any]]:
        return [("nonempty", bool(await c.conformance_vectors()))]


def free_port() -> int:
    """A loopback port that nothing listens on (bound and let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def run_scenario(address: str, use_aio: bool, path: Path, out: Callable[[str], None]) -> None:
    steps = json.loads(path.read_text())["steps"]
    hook = Hook()
    nowhere = f"127.0.0.1:{free_port()}"
    if use_aio:
        async with (
            AsyncClient(address, interceptors=[AsyncHook(hook)]) as c,
            AsyncClient(nowhere, interceptors=[AsyncHook(hook)]) as gone,
        ):
            await Run(c, gone, hook, out).run(steps)
    else:
        with (
            Client(address, interceptors=[BlockingHook(hook)]) as c,
            Client(nowhere, interceptors=[BlockingHook(hook)]) as g,
        ):
            await Run(Blocking(c), Blocking(g), hook, out).run(steps)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("address")
    parser.add_argument("--aio", action="store_true", help="run it on hunters.aio.AsyncClient")
    parser.add_argument("--scenario", type=Path, default=SCENARIO)
    args = parser.parse_args(argv)

    def out(line: str) -> None:
        print(line, flush=True)

    asyncio.run(run_scenario(args.address, args.aio, args.scenario, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
