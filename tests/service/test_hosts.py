"""One key per host on both sides: a gRPC peer and an HTTP remote address of the same host are one
caller, IPv4 and IPv6 alike, so a host's bot seats are one share whichever side it creates from."""

import http.client
import json

import grpc
import pytest

from hunters.service.hosts import host_key
from hunters.v1 import matches_pb2

from .helpers import rpc_error, stubs


@pytest.mark.parametrize(
    ("peer", "key"),
    [
        ("ipv4:203.0.113.7:5678", "peer:203.0.113.7"),
        ("203.0.113.7", "peer:203.0.113.7"),
        ("ipv6:[::ffff:203.0.113.7]:5678", "peer:203.0.113.7"),  # a dual-stack listener's IPv4 client
        ("ipv6:%5B::ffff:203.0.113.7%5D:5678", "peer:203.0.113.7"),  # gRPC escapes the brackets
        ("::ffff:203.0.113.7", "peer:203.0.113.7"),
        ("ipv6:%5B::1%5D:5678", "peer:::1"),
        ("::1", "peer:::1"),
        ("ipv6:[2001:db8:1:2:aaaa::1]:80", "peer:2001:db8:1:2::/64"),
        ("2001:db8:1:2:bbbb::2", "peer:2001:db8:1:2::/64"),  # another address of the same /64
        ("2001:db8:1:3::1", "peer:2001:db8:1:3::/64"),
        ("fe80::1%eth0", "peer:fe80::/64"),
        ("unix:/run/hunters.sock", "peer:unix"),
        (None, "peer:unknown"),
        ("", "peer:unknown"),
        ("not an address", "peer:not an address"),
    ],
)
def test_a_peer_is_keyed_by_its_host(peer, key):
    assert host_key(peer) == key


def test_a_hosts_bot_seats_are_one_share_over_grpc_and_http(server_factory):
    slow = "mcts:iterations=100000"
    server = server_factory(http_port=0, max_bot_seats=8, caller_bot_seats=2)
    _, stub, _ = stubs(server.port)
    config = matches_pb2.GameConfig(game="carcassonne_hg", players=3, seed=1)
    config.bots.add(seat=0, bot=slow)
    stub.CreateMatch(matches_pb2.CreateMatchRequest(config=config))
    conn = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=30)
    body = {"game": "carcassonne_hg", "players": 2, "you": 0, "bots": [{"seat": 1, "bot": slow}]}
    write = {"Content-Type": "application/json", "X-Hunters-Request": "1"}
    conn.request("POST", "/api/play", body=json.dumps(body), headers=write)
    resp = conn.getresponse()
    assert resp.status == 200, resp.read()  # the host's second bot seat
    resp.read()
    conn.request("POST", "/api/play", body=json.dumps(body), headers=write)
    resp = conn.getresponse()
    refused = json.loads(resp.read())
    assert (resp.status, refused["reason"]) == (429, "TOO_MANY_BOT_SEATS")  # a third: over the host's two
    conn.close()
    code, reason, _ = rpc_error(stub.CreateMatch, matches_pb2.CreateMatchRequest(config=config))
    assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_BOT_SEATS")
    assert server.manager.bot_seats == 2
