"""What the client scenario's Python runner (scenario.py) needs around the clients: a gRPC
interceptor (`Hook`) that records each unary call and loses replies on demand, for the blocking and
the asyncio client, and the blocking client behind the asyncio client's interface (`Blocking`), so
that the steps are written once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import grpc
import grpc.aio

from hunters.client import Client, Turn

__all__ = ["AsyncHook", "Blocking", "BlockingHook", "Hook"]


class Hook:
    """What the scenario sees of unary calls: each call's method and request, in order; `lose`
    makes the next `n` replies of a method fail with UNAVAILABLE after the server has answered."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.losing: dict[str, int] = {}

    def reset(self) -> None:
        self.calls.clear()
        self.losing.clear()

    def lose(self, method: str, n: int) -> None:
        self.losing[method] = n

    def requests(self, method: str) -> list[Any]:
        return [r for m, r in self.calls if m == method]

    def seen(self, method: str | bytes, request: Any) -> bool:
        """Record a call; whether its reply is to be lost."""
        name = (method.decode() if isinstance(method, bytes) else method).rsplit("/", 1)[-1]
        self.calls.append((name, request))
        if self.losing.get(name, 0) > 0:
            self.losing[name] -= 1
            return True
        return False


LOST = "the reply was lost (the scenario's hook)"


class LostReply(grpc.RpcError):  # type: ignore[misc]
    """A reply lost on the way back (the blocking client's view of it)."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return LOST

    def trailing_metadata(self) -> tuple[()]:
        return ()


class BlockingHook(grpc.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    def __init__(self, hook: Hook):
        self.hook = hook

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        lose = self.hook.seen(details.method, request)
        outcome = continuation(details, request)  # the server has answered
        if lose:
            raise LostReply()
        return outcome


class AsyncHook(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    def __init__(self, hook: Hook):
        self.hook = hook

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        lose = self.hook.seen(details.method, request)
        call = await continuation(details, request)
        if lose:
            await call.code()  # the server has answered
            raise grpc.aio.AioRpcError(
                grpc.StatusCode.UNAVAILABLE, grpc.aio.Metadata(), grpc.aio.Metadata(), details=LOST
            )
        return call


class BlockingSeat:
    """A blocking SeatStream behind AsyncSeatStream's interface."""

    def __init__(self, client: Client, *args: Any, **kwargs: Any):
        self.stream = client.seat(*args, **kwargs)

    @property
    def version(self) -> int:
        return self.stream.version

    async def __aenter__(self) -> BlockingSeat:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stream.close()

    async def play(self, turn: Turn | int, move: Any = None, **kwargs: Any) -> None:
        self.stream.play(turn, move, **kwargs)

    async def __aiter__(self) -> AsyncIterator[Any]:
        for item in self.stream:
            yield item


class Blocking:
    """The blocking client behind the asyncio client's interface: its calls as coroutines and its
    iterators as async iterators, so that the steps are written once."""

    STREAMS = {"all_matches", "watch", "simulate", "perft"}

    def __init__(self, client: Client):
        self.client = client

    def seat(self, *args: Any, **kwargs: Any) -> BlockingSeat:
        return BlockingSeat(self.client, *args, **kwargs)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)
        if name in self.STREAMS:

            async def stream(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
                items = method(*args, **kwargs)
                try:
                    for item in items:
                        yield item
                finally:
                    getattr(items, "close", lambda: None)()

            return stream

        async def call(*args: Any, **kwargs: Any) -> Any:
            return method(*args, **kwargs)

        return call
