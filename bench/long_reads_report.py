"""A victim's GetMatch latency while others read a long match: unread WatchMatch streams from version
0, watches from the latest version, and GetRecord callers in a loop.

    python bench/long_reads_report.py                # 20,000 moves, 200 streams, 4 record callers
    python bench/long_reads_report.py 5000 50 2

The match is a Jäger und Sammler game of round trips (stall_rounds 10,000), its moves written straight
into the server's SQLite file. The server (`hunters serve`) and the flood (this file, run as
`flood KIND ...`, at nice 19) each run in their own process, so that neither shares the victim's GIL.
For each flood: the victim's GetMatch p50 and p99 over the flood's first seconds, against idle.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import grpc

from hunters.jaeger import Game
from hunters.v1 import matches_pb2, matches_pb2_grpc

SECONDS = 8.0  # the victim's window under each flood


def long_game(n: int, seed: int = 1) -> Game:
    game = Game.new(players=2, seed=seed, stall_rounds=10_000)
    for _ in range(n):
        game.play(
            next(m for m in game.legal_moves() if m.to_json()["steps"][-1]["dst"] == m.to_json()["steps"][0]["src"])
        )
    return game


def _stub(port: int) -> matches_pb2_grpc.MatchServiceStub:
    channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)])
    return matches_pb2_grpc.MatchServiceStub(channel)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(folder: Path, n: int) -> tuple[subprocess.Popen[bytes], int, str, str]:
    """A server on a SQLite file holding one match of `n` moves: (process, port, match id, its
    admin token)."""
    db = folder / "long.db"
    port = _free_port()
    cmd = [sys.executable, "-m", "hunters.cli", "serve", "--port", str(port), "--db", str(db)]
    server = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    stub = _stub(port)
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=1)
    config.jaeger.stall_rounds = 10_000
    request = matches_pb2.CreateMatchRequest(config=config)
    made = stub.CreateMatch(request, wait_for_ready=True, timeout=60)
    match_id, admin = made.match.match_id, made.admin_token
    server.terminate()
    server.wait()
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES (?, ?, ?, ?, 0)",
            [(match_id, i, i % 2, json.dumps(m.to_json())) for i, m in enumerate(long_game(n).moves)],
        )
    server = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    _stub(port).GetMatch(matches_pb2.GetMatchRequest(match_id=match_id), wait_for_ready=True, timeout=120)
    return server, port, match_id, admin


def victim(port: int, match_id: str, seconds: float) -> tuple[float, float, int]:
    """GetMatch in a loop for `seconds`: (p50, p99, calls)."""
    stub = _stub(port)
    request = matches_pb2.GetMatchRequest(match_id=match_id)
    took: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        stub.GetMatch(request, timeout=120)
        took.append(time.perf_counter() - start)
    took.sort()
    return took[len(took) // 2], took[int(0.99 * len(took))], len(took)


def flood(kind: str, port: int, match_id: str, admin: str, count: int, seconds: float) -> None:
    """Run in a process of its own: `count` unread watches (`zero`: from version 0, `latest`: from
    the latest version), or `count` threads calling GetRecord (with the admin token: the match is
    not over) in a loop, for `seconds`."""
    stubs = [_stub(port) for _ in range(count)]
    latest = stubs[0].GetMatch(matches_pb2.GetMatchRequest(match_id=match_id)).match.version
    end = time.monotonic() + seconds
    if kind in ("zero", "latest"):
        start = 0 if kind == "zero" else latest
        request = matches_pb2.WatchMatchRequest(match_id=match_id, from_version=start)
        streams = [stub.WatchMatch(request, timeout=seconds + 60) for stub in stubs]
        opened = time.monotonic()
        if kind == "latest":  # each reads its one message, then waits
            for stream in streams:
                next(stream)
        opened = time.monotonic() - opened
        time.sleep(max(0.0, end - time.monotonic()))
        for stream in streams:
            stream.cancel()
        print(f"streams={count} first_messages_in={opened:.2f}s")
        return
    calls = [0] * count

    def records(i: int) -> None:
        while time.monotonic() < end:
            request = matches_pb2.GetRecordRequest(match_id=match_id)
            stubs[i].GetRecord(request, metadata=(("authorization", f"Bearer {admin}"),), timeout=120)
            calls[i] += 1

    threads = [threading.Thread(target=records, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"records={sum(calls)}")


def main(argv: list[str]) -> None:
    n, streams, records = ([int(a) for a in argv] + [20_000, 200, 4][len(argv) :])[:3]
    with tempfile.TemporaryDirectory() as folder:
        server, port, match_id, admin = serve(Path(folder), n)
        try:
            victim(port, match_id, 1.0)  # warm up
            idle = victim(port, match_id, SECONDS)
            print(f"{n:,} moves; victim GetMatch idle: p50 {idle[0] * 1e3:.2f} ms, p99 {idle[1] * 1e3:.2f} ms")
            for kind, count in (("zero", streams), ("latest", streams), ("records", records)):
                env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
                setup = "import os, sys; os.nice(19); os.execv(sys.argv[1], sys.argv[1:])"
                args = [kind, str(port), match_id, admin, str(count), str(SECONDS + 2)]
                cmd = [sys.executable, "-c", setup, sys.executable, __file__, "flood", *args]
                flooder = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
                time.sleep(1.0)  # the flood's client process started, its calls going out
                p50, p99, calls = victim(port, match_id, SECONDS)
                out, _ = flooder.communicate(timeout=SECONDS + 300)
                print(
                    f"  {kind:>7} x{count}: victim p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms "
                    f"({p99 / idle[1]:.1f}x idle, {calls} calls); flood {out.strip()}"
                )
                time.sleep(2.0)  # what the flood left running drains
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    if sys.argv[1:2] == ["flood"]:
        flood(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]), float(sys.argv[7]))
    else:
        main(sys.argv[1:])
