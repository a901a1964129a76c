"""The third game (tests/tiny_tiles, outside the hunters package): registered as a plug-in, with no
edit to any shared module, it is served over gRPC and listed by the game service, played by the
built-in bots (random, greedy, and mcts through its Python search) in the arena and in server bot
seats, offered as PettingZoo, Gymnasium and OpenSpiel environments, drawn by the live viewer and
rebuilt from its public history by `hunters play`."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest

import hunters
from hunters.bots import make_bot
from hunters.bots.arena import run_arena
from hunters.bots.remote import play_match
from hunters.cli import main
from hunters.client import Client
from hunters.service import ServerConfig, create_server
from hunters.v1 import state_pb2
from tests.tiny_tiles.game import TinyGame
from tests.tiny_tiles.plugin import PLUGIN

GAME = "tiny_tiles"


@pytest.fixture
def registered():
    hunters.games.register(PLUGIN)
    yield
    hunters.games.unregister(GAME)


@pytest.fixture
def server(registered, tmp_path):
    running = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path / "m.db"), http_port=0))
    yield running
    running.stop(0)


def test_the_registry_lists_it_and_the_game_service_describes_it(server):
    with Client(f"127.0.0.1:{server.port}") as c:
        assert GAME in [g.game for g in c.list_games()]
        info = c.game_info(GAME)
    assert info.summary.display_name == "Tiny tiles" and info.summary.max_players == 3
    assert info.summary.action_space_size == 9


def test_served_and_played_to_the_end_against_a_server_bot(server):
    with Client(f"127.0.0.1:{server.port}") as c:
        m = c.create_match(GAME, players=2, seed=5, bots={1: "greedy:seed=2"})
        local = TinyGame.new(players=2, seed=5)
        for event in c.watch(m.match_id, timeout=60):
            if event.move is not None:
                assert [e._asdict() for e in local.play(event.move)] == event.events  # move for move
            if event.match_over:
                break
            if event.state.player == 0:
                move, _ = c.legal_moves(m.match_id)[0]
                c.play(m.match_id, move, token=m.seat_tokens[0], expected_version=event.version)
        final = c.get_match(m.match_id)
    assert final.state.status == state_pb2.GAME_STATUS_OVER and list(final.state.scores) == local.scores
    assert local.is_over and final.state.version == len(local.moves) == 9  # every move seen, in order
    assert json.loads(final.state.json) == local.view()  # the served board is the one played here


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=40"])
def test_every_built_in_bot_plays_it_in_the_arena(registered, spec):
    result = run_arena(GAME, 2, [spec, "random"], 4, seed=3)
    assert len(result.results) == 4 and all(g.forfeit is None for g in result.results)
    assert all(sum(g.scores) >= 9 for g in result.results)  # nine tiles worth at least 1 each


def test_greedy_uses_the_plugins_evaluation(registered):
    """The plugin's value prefers the centre (another turn) when points are equal."""
    game = TinyGame.new(players=2, seed=1, pile=[0, 0, 0, 1, 1, 1, 2, 2, 2])
    assert make_bot("greedy")(game).cell == 4


def test_rebuilt_from_its_public_history_by_hunters_play(server):
    with Client(f"127.0.0.1:{server.port}") as c:
        m = c.create_match(GAME, players=2, seed=8, bots={1: "random:seed=1"})
        done = {}
        thread = threading.Thread(
            target=lambda: done.update(
                last=play_match(f"127.0.0.1:{server.port}", m.match_id, m.seat_tokens[0], 0, make_bot("greedy"))
            ),
        )
        thread.start()
        thread.join(60)
        assert not thread.is_alive() and done["last"].match_over
        assert c.get_match(m.match_id).state.status == state_pb2.GAME_STATUS_OVER


def test_drawn_by_the_viewer(server):
    with Client(f"127.0.0.1:{server.port}") as c:
        m = c.create_match(GAME, players=2, seed=4)
        move, _ = c.legal_moves(m.match_id)[0]
        c.play(m.match_id, move, token=m.seat_tokens[0])
    base = f"http://127.0.0.1:{server.http_port}"
    with urllib.request.urlopen(f"{base}/api/matches/{m.match_id}", timeout=10) as resp:
        page = json.loads(resp.read())
    assert page["game_name"] == "Tiny tiles" and 'data-game="tiny_tiles"' in page["svg"]
    assert page["log"][0]["text"] == f"a tile on cell {move.cell}" and "on cell" in page["log"][0]["events_text"]
    with urllib.request.urlopen(f"{base}/api/games", timeout=10) as resp:
        assert {"game": GAME, "name": "Tiny tiles"} in json.loads(resp.read())["games"]


def test_offered_as_learning_environments(registered):
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("pyspiel")
    from hunters.rl import aec_env
    from hunters.rl.gym import register_envs
    from hunters.rl.openspiel import register_all

    assert "hunters/TinyTiles-v0" in register_envs()
    env = gymnasium.make("hunters/TinyTiles-v0")
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].sum() == 9
    zoo = aec_env(GAME, players=2)
    zoo.reset(seed=1)
    assert zoo.agents == ["player_0", "player_1"]
    import pyspiel

    assert "python_hunters_tiny_tiles" in register_all()
    state = pyspiel.load_game("python_hunters_tiny_tiles").new_initial_state()
    assert state.is_chance_node()


def test_the_command_line_simulates_it(registered, capsys):
    assert main(["simulate", "--game", GAME, "--games", "3", "--quiet"]) == 0
    assert "tiny_tiles" in capsys.readouterr().out
