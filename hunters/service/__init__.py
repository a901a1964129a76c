"""The gRPC service: matches, moves, events, a stateless rules oracle and in-server simulation.

`create_server` builds a server on an address (tests use port 0); `serve` runs it until SIGTERM.
The service translates protobuf to game-API calls and back; it holds no rule.
"""
from .server import ServerConfig, create_server, serve

__all__ = ["ServerConfig", "create_server", "serve"]
