"""`hunters play`: a bot plays one seat of a match on a real server, seeing only the public stream;
its moves are the moves it would choose on the true game."""

import random
import threading

import pytest

import hunters
from hunters.bots import Observation, make_bot
from hunters.bots.remote import play_match
from hunters.client import Client
from hunters.service import ServerConfig, create_server
from hunters.service.healthcheck import main as healthcheck
from hunters.v1 import matches_pb2


@pytest.fixture
def server(tmp_path):
    running = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "m.db")))
    yield running
    running.stop(0)


@pytest.mark.parametrize("game_id,players,seed", [("carcassonne_hg", 2, 3), ("jaeger_sammler", 3, 4)])
def test_a_bot_plays_a_seat_over_grpc(server, game_id, players, seed):
    address = f"127.0.0.1:{server.port}"
    spec = "greedy:seed=2"
    with Client(address) as client:
        info = client.create_match(game_id, players, seed=seed)
        errors = []

        def run():
            try:
                play_match(address, info.match_id, info.seat_tokens[1], 1, make_bot(spec))
            except Exception as exc:  # surfaced below
                errors.append(exc)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        rng = random.Random(seed)
        others = [p for p in range(players) if p != 1]
        for ev in client.watch(info.match_id, 0, timeout=60):
            if ev.match_over:
                break
            if ev.state.player in others:
                moves = client.legal_moves(info.match_id)
                if ev.version == client.get_match(info.match_id).version:
                    client.play(
                        info.match_id,
                        rng.choice(moves)[0],
                        token=info.seat_tokens[ev.state.player],
                        expected_version=ev.version,
                    )
        thread.join(60)
        assert not errors, errors
        record = client.record(info.match_id, info.admin_token)
    # replay the true game: at each of seat 1's decisions the bot, given the true game, picks the same move
    cls = hunters.games.get(game_id)
    move_type = type(cls.new(players=players).legal_moves()[0])
    game = cls.from_record(dict(record, moves=[]))
    bot = make_bot(spec)
    seat1 = 0
    for data in record["moves"]:
        move = move_type.from_json(data)
        if game.player == 1:
            assert bot(game) == move
            seat1 += 1
        game.play(move)
    assert game.is_over and seat1 > 3


def test_cli_play(server, capsys):
    from hunters.cli import main

    address = f"127.0.0.1:{server.port}"
    with Client(address) as client:
        info = client.create_match("carcassonne_hg", 2, seed=9)
        status = []
        thread = threading.Thread(
            target=lambda: status.append(
                main(
                    [
                        "play",
                        "--address",
                        address,
                        "--match",
                        info.match_id,
                        "--token",
                        info.seat_tokens[0],
                        "--seat",
                        "0",
                        "--bot",
                        "mcts:iterations=30",
                        "--quiet",
                    ]
                )
            ),
            daemon=True,
        )
        thread.start()
        rng = random.Random(1)
        for ev in client.watch(info.match_id, 0, timeout=60):
            if ev.match_over:
                break
            if ev.state.player == 1 and ev.version == client.get_match(info.match_id).version:
                client.play(
                    info.match_id,
                    rng.choice(client.legal_moves(info.match_id))[0],
                    token=info.seat_tokens[1],
                    expected_version=ev.version,
                )
        thread.join(60)
    assert status == [0]
    assert "over" in capsys.readouterr().out
    assert main(["play", "--address", address, "--match", "nope", "--token", "x", "--seat", "0", "--quiet"]) == 1


@pytest.mark.parametrize(
    "game_id,players,seeds",
    [
        ("carcassonne_hg", 2, range(4)),
        ("carcassonne_hg", 4, [9]),
        ("jaeger_sammler", 2, range(3)),
        ("jaeger_sammler", 4, [5]),
    ],
)
def test_rebuild_from_the_public_states_looks_the_same_to_every_seat(game_id, players, seeds):
    """Without a server: the wire states of a random game, version by version, rebuild a game that
    every seat observes exactly as it observes the true game."""
    from hunters.bots.remote import rebuild
    from hunters.wire import adapter

    cls = hunters.games.get(game_id)
    ad = adapter(game_id)
    for seed in seeds:
        game = cls.new(players=players, seed=seed)
        rng = random.Random(seed)
        states, moves = [ad.state(game, 0)], []
        while not game.is_over:
            move = rng.choice(game.legal_moves())
            game.play(move)
            moves.append(move)
            states.append(ad.state(game, len(moves)))
            if len(moves) % 7 and not game.is_over:
                continue
            local = rebuild(game_id, players, {}, states, moves)
            for seat in range(players):
                a, b = local.observed_by(seat), game.observed_by(seat)
                assert a.view() == b.view()
                assert a.legal_moves() == b.legal_moves()
                if game_id == "carcassonne_hg":
                    assert (a.core.drawn(), a.core.undrawn()) == (b.core.drawn(), b.core.undrawn())
                else:
                    assert [a.collection(p) for p in range(players)] == [b.collection(p) for p in range(players)]
                    # (once over, a winter that ended at its set-up dealt tiles no state shows)
                    assert a.events == b.events or game.is_over
            if not game.is_over:
                obs_local = Observation.of(local, game.player)
                assert make_bot("mcts:iterations=50")(local) == make_bot("mcts:iterations=50")(game)
                assert obs_local.view == Observation.of(game).view


def _play(address, match_id, token, seat, bot="random"):
    from hunters.cli import main

    return main(
        ["play", "--address", address, "--match", match_id, "--token", token, "--seat", str(seat), "--bot", bot]
    )


@pytest.mark.parametrize("token_seat, said", [(0, 1), (1, 0)])
def test_cli_play_refuses_a_token_of_another_seat(server, capsys, token_seat, said):
    """The server's turn names the token's seat: a --seat that differs is refused at the token's
    first turn, with exit 1 and nothing played (the seat to move first, and a later one)."""
    address = f"127.0.0.1:{server.port}"
    with Client(address) as client:
        info = client.create_match("carcassonne_hg", 2, seed=9)
        done = []
        thread = threading.Thread(
            target=lambda: done.append(_play(address, info.match_id, info.seat_tokens[token_seat], said)), daemon=True
        )
        thread.start()
        if token_seat == 1:  # the token's seat is not first to move: seat 0 plays, then seat 1's turn comes
            move = client.legal_moves(info.match_id)[0][0]
            client.play(info.match_id, move, token=info.seat_tokens[0], expected_version=0)
        thread.join(60)
        assert done == [1]
        assert client.get_match(info.match_id).version == token_seat  # the token's seat played nothing
    err = capsys.readouterr().err
    assert f"the token is seat {token_seat}'s" in err and f"not seat {said}'s" in err
    assert f"seat {said} plays" not in err


@pytest.mark.parametrize("given", ["localhost", "127.0.0.1", "[::1]", "::1"])
def test_cli_play_without_a_port_uses_the_server_s_default_port(tmp_path, monkeypatch, capsys, given):
    """An address without a port means the port `hunters serve` listens on by default (gRPC alone
    would use 443): a whole match is played against a server bot through each form, and the
    health check answers through it."""
    import socket

    import hunters.address

    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(hunters.address, "DEFAULT_PORT", port)  # a free port stands for 50051 here
    running = create_server(ServerConfig(address=f"[::]:{port}", db=str(tmp_path / "m.db")))
    try:
        with Client(f"127.0.0.1:{port}") as client:
            info = client.create_match("jaeger_sammler", 2, seed=3, bots={1: "random"})
            assert _play(given, info.match_id, info.seat_tokens[0], 0) == 0
            assert client.get_match(info.match_id).status == matches_pb2.MATCH_STATUS_OVER
        assert healthcheck(["--address", given, "--timeout", "10"]) == 0
    finally:
        running.stop(0)
    assert f"match {info.match_id}: version" in capsys.readouterr().out
