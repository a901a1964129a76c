"""The service tests' fixtures (a real server on a free loopback port per test), shared."""

from tests.service.conftest import client, server, server_factory

__all__ = ["client", "server", "server_factory"]
