"""The service tests' fixtures (a real server on a free loopback port per test), shared (SQLite here:
the store does not matter to the viewer)."""

from tests.service.conftest import client, database, server, server_factory, store_kind

__all__ = ["client", "database", "server", "server_factory", "store_kind"]
