"""Server addresses as people type them and as gRPC reads them: one parser for every command that
connects to a server (`hunters play`, `hunters arena --address`, the health check) and one writer
for the server's own address (`hunters serve`), so that the default port is the same everywhere.

gRPC reads a target without a port as port 443; here an address without one means the server's
default port, `DEFAULT_PORT`."""

from __future__ import annotations

import argparse

__all__ = ["DEFAULT_PORT", "join", "server_address", "server_address_argument"]

DEFAULT_PORT = 50051
"""The port `hunters serve` listens on unless told otherwise (``--port``, ``HUNTERS_PORT``)."""

# gRPC's own target forms (its naming schemes): passed on as they are
_SCHEMES = ("dns:", "unix:", "unix-abstract:", "ipv4:", "ipv6:", "vsock:")


def join(host: str, port: int) -> str:
    """``host:port`` for gRPC, an IPv6 literal in brackets (``::`` becomes ``[::]:port``)."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def server_address(text: str) -> str:
    """The gRPC target of a server address typed as ``host``, ``host:port``, ``[ipv6]``,
    ``[ipv6]:port`` or a bare IPv6 literal (``::1``); without a port, `DEFAULT_PORT`. One of
    gRPC's own target forms (``unix:/path``, ``dns:///host:port`` ...) is passed on unchanged.
    ValueError, saying what is wrong, for anything else (an empty host, a port that is not 1 to
    65535, an unclosed bracket)."""
    text = text.strip()
    if text.startswith(_SCHEMES):
        return text
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(f"{text!r}: an IPv6 address in brackets needs its closing ']'")
        host, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r}: after ']' comes ':PORT' or nothing")
        port = rest[1:] if rest else None
    elif text.count(":") > 1:  # a bare IPv6 literal: no port can be told from its last group
        host, port = text, None
    else:
        host, sep, port_text = text.partition(":")
        port = port_text if sep else None
    if not host:
        raise ValueError(f"{text!r} names no host (HOST, HOST:PORT or [IPv6]:PORT)")
    return join(host, DEFAULT_PORT if port is None else _port(text, port))


def _port(text: str, port: str) -> int:
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise ValueError(f"{text!r}: the port must be a number from 1 to 65535, not {port!r}")
    return int(port)


def server_address_argument(text: str) -> str:
    """`server_address` as an argparse ``type``: a bad address is the command's one-line error."""
    try:
        return server_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


server_address_argument.__name__ = "address"  # argparse's word for a value it could not convert
