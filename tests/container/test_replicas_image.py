"""The image as two replicas on one PostgreSQL database (HUNTERS_DB=postgresql://...): the `postgres`
extra is in the image, a move played through one container is seen by a watcher of the other. The
database is a throwaway cluster on the host (tests/service/pgcluster.py, Debian's postgresql: skipped
without it), reached over the host's network (`--network host`)."""

from __future__ import annotations

import socket
import threading

import grpc
import pytest

from hunters.carcassonne import Game
from hunters.client import Client
from tests.service.pgcluster import Cluster, binaries

from .conftest import REPORT

pytestmark = pytest.mark.container


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_two_containers_on_one_postgres_serve_the_same_matches(res):
    if binaries() is None:
        pytest.skip("PostgreSQL is not installed on the host (apt-get install postgresql)")
    cluster = Cluster()
    try:
        url = cluster.new_database()
        ports = [free_port(), free_port()]
        for port in ports:
            res.container(
                "--network", "host", "-e", f"HUNTERS_DB={url}", command=("--host", "127.0.0.1", "--port", str(port))
            ).start()
        for port in ports:
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                grpc.channel_ready_future(channel).result(timeout=90)
        with Client(f"127.0.0.1:{ports[0]}") as a, Client(f"127.0.0.1:{ports[1]}") as b:
            m = a.create_match("carcassonne_hg", players=2, seed=21)
            local = Game.new(players=2, seed=21)
            seen = []
            started = threading.Event()

            def watch() -> None:
                for event in b.watch(m.match_id, from_version=0, timeout=60):
                    seen.append(event.version)
                    started.set()
                    if event.version >= 6:
                        return

            watcher = threading.Thread(target=watch)
            watcher.start()
            assert started.wait(30)
            for i in range(6):
                move = local.legal_moves()[i % len(local.legal_moves())]
                a.play(m.match_id, move, token=m.seat_tokens[local.player], expected_version=i)
                local.play(move)
            watcher.join(timeout=30)
            assert seen == list(range(7))
            assert b.record(m.match_id, m.admin_token) == local.to_record()
        REPORT.append("replicas: two containers on one PostgreSQL, a watcher of one saw the moves played on the other")
    finally:
        cluster.stop()
