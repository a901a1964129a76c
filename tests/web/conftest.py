"""A real server on a free loopback port, with its own SQLite file, per test."""

import pytest

from hunters.client import Client
from hunters.service import ServerConfig, create_server


@pytest.fixture
def server_factory(tmp_path):
    started = []

    def start(**kwargs):
        kwargs.setdefault("db", str(tmp_path / "matches.db"))
        running = create_server(ServerConfig(address="127.0.0.1:0", **kwargs))
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop(0)


@pytest.fixture
def server(server_factory):
    return server_factory()


@pytest.fixture
def client(server):
    with Client(f"127.0.0.1:{server.port}") as c:
        yield c
