"""The gRPC service: matches, moves, events, a stateless rules oracle and in-server simulation.

`create_server` starts a server on an address (tests use port 0) on its own event-loop thread;
`serve` runs it until SIGTERM. The service translates protobuf to game-API calls and back; it holds
no rule. Importing this package is cheap: the server (and grpc) load on first use."""

from __future__ import annotations

from typing import Any

__all__ = ["ServerConfig", "create_server", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(name)
