"""WatchMatch from version 0 on long matches: seconds and messages per second by length, to show the
stream is linear in the length of the match (it was quadratic: every message decoded every move
before it).

    python bench/watch_report.py                  # 2,000, 8,000 and 20,000 moves
    python bench/watch_report.py 1000 4000

Each match is a Jäger und Sammler game of round trips that take no tile (stall_rounds 10,000), its
moves written straight into a server's SQLite file; the server reads it from there and the watch is
timed from its first message to the one of the last move.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import grpc

from hunters.jaeger import Game
from hunters.service import ServerConfig, create_server
from hunters.v1 import matches_pb2, matches_pb2_grpc


def long_game(n: int, seed: int = 1) -> Game:
    game = Game.new(players=2, seed=seed, stall_rounds=10_000)
    for _ in range(n):
        game.play(
            next(m for m in game.legal_moves() if m.to_json()["steps"][-1]["dst"] == m.to_json()["steps"][0]["src"])
        )
    return game


def watch_seconds(n: int, folder: Path) -> float:
    db = str(folder / f"watch-{n}.db")
    first = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    stub = matches_pb2_grpc.MatchServiceStub(grpc.insecure_channel(f"127.0.0.1:{first.port}"))
    config = matches_pb2.GameConfig(game="jaeger_sammler", players=2, seed=1)
    config.jaeger.stall_rounds = 10_000
    match_id = stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config)).match.match_id
    first.stop(0)
    moves = long_game(n).moves
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO moves (match_id, idx, seat, move, played_at) VALUES (?, ?, ?, ?, 0)",
            [(match_id, i, i % 2, json.dumps(m.to_json())) for i, m in enumerate(moves)],
        )
    server = create_server(ServerConfig(address="127.0.0.1:0", db=db))
    try:
        stub = matches_pb2_grpc.MatchServiceStub(grpc.insecure_channel(f"127.0.0.1:{server.port}"))
        stub.GetMatch(matches_pb2.GetMatchRequest(match_id=match_id))  # loaded before the clock starts
        start = time.perf_counter()
        stream = stub.WatchMatch(matches_pb2.WatchMatchRequest(match_id=match_id))
        for event in stream:
            if event.version == n:
                break
        seconds = time.perf_counter() - start
        stream.cancel()
        return seconds
    finally:
        server.stop(0)


def main(argv: list[str]) -> None:
    lengths = [int(a) for a in argv] or [2000, 8000, 20000]
    with tempfile.TemporaryDirectory() as folder:
        for n in lengths:
            seconds = watch_seconds(n, Path(folder))
            print(f"{n:>7,} moves: {n + 1:,} messages in {seconds:.2f} s ({(n + 1) / seconds:,.0f} messages/s)")


if __name__ == "__main__":
    main(sys.argv[1:])
