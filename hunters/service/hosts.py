"""One key per host, whichever side a caller comes in by: gRPC's peer strings (``ipv4:1.2.3.4:5678``,
``ipv6:[::1]:5678``, or with the brackets escaped: ``ipv6:%5B::1%5D:5678``) and an HTTP request's
remote address (``1.2.3.4``, ``::1``) give the same key for the same host, so that a host's share of
a limit is one share.

An IPv4 address is the host. An IPv4-mapped IPv6 address (``::ffff:1.2.3.4``, a dual-stack listener's
view of an IPv4 client) is that IPv4 host. Any other IPv6 address counts by its /64 network: one
host, or one home or office, is given a /64 and may use any address in it, so a finer key would be
one a caller can make up for free.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import unquote

IPV6_PREFIX = 64
"""The IPv6 network a host is keyed by (a site is given at least a /64)."""

UNKNOWN = "peer:unknown"
"""The key of a caller whose address is not known (an HTTP request over a Unix socket)."""


def host_key(peer: str | None) -> str:
    """The key of the host behind `peer`: a gRPC peer string or an HTTP remote address. Never fails:
    an address it cannot read is its own key."""
    if not peer:
        return UNKNOWN
    address = peer
    if peer.startswith(("ipv4:", "ipv6:")):
        rest = unquote(peer[5:])  # the address and port
        address = rest[1:].partition("]")[0] if rest.startswith("[") else rest.rpartition(":")[0]
    elif peer.startswith(("unix:", "unix-abstract:")):
        return "peer:unix"  # the same machine (the socket's path names no client)
    try:
        ip = ipaddress.ip_address(address.partition("%")[0])  # without an IPv6 zone (fe80::1%eth0)
    except ValueError:
        return "peer:" + peer
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return f"peer:{ip.ipv4_mapped}"
        if ip.is_loopback:
            return "peer:::1"
        return f"peer:{ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False)}"
    return f"peer:{ip}"
