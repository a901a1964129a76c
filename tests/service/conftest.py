"""A real server on a free loopback port, with its own database, per test: a SQLite file, and with
`--postgres` also a new database on a throwaway PostgreSQL cluster (one per session, pgcluster.py):
every test that starts servers through these fixtures runs against both stores then."""

import pytest

from hunters.client import Client
from hunters.service import ServerConfig, create_server


def pytest_generate_tests(metafunc):
    # Parametrized only with --postgres, so that the plain run keeps its test ids.
    if "store_kind" in metafunc.fixturenames and metafunc.config.getoption("--postgres"):
        metafunc.parametrize("store_kind", ["sqlite", "postgres"])


@pytest.fixture
def store_kind():
    return "sqlite"


@pytest.fixture(scope="session")
def postgres_cluster():
    from .pgcluster import Cluster, binaries

    if binaries() is None:
        pytest.fail("--postgres needs PostgreSQL installed (apt-get install postgresql; .ci/run does)")
    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture
def database(request, store_kind, tmp_path):
    """new(name) -> the `db` of a server: a SQLite file in tmp_path, or a PostgreSQL database, one per
    name (two servers given one name share one database)."""
    made = {}

    def new(name="matches"):
        if name not in made:
            if store_kind == "postgres":
                made[name] = request.getfixturevalue("postgres_cluster").new_database()
            else:
                made[name] = str(tmp_path / f"{name}.db")
        return made[name]

    return new


@pytest.fixture
def server_factory(database, store_kind):
    started = []

    def start(**kwargs):
        db = kwargs.get("db")
        if db is None:
            kwargs["db"] = database()
        elif store_kind == "postgres" and "://" not in db:  # a file a test chose: one database per name
            kwargs["db"] = database(db)
        running = create_server(ServerConfig(**{"address": "127.0.0.1:0", **kwargs}))
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
