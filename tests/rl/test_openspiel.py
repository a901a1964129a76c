"""OpenSpiel: the games as Python games with chance nodes; random simulation and OpenSpiel's MCTS."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from hunters.capabilities import SeededChance, supports  # noqa: E402
from hunters.rl.openspiel import register, string_bound  # noqa: E402
from tests.tiny_tiles.game import TinyGame  # noqa: E402

from .conftest import CHANCE_GAMES  # noqa: E402


def load(cls, players=2):
    name = register(cls, perfect_information=True if cls is TinyGame else None)
    return pyspiel.load_game(f"{name}(players={players})")


def test_random_sim_test_with_serialisation(chance_cls):
    game = load(chance_cls)
    pyspiel.random_sim_test(game, num_sims=2 if chance_cls is not TinyGame else 20, serialize=True, verbose=False)


def test_random_sim_test_three_players(chance_cls):
    if chance_cls.INFO.max_players < 3:
        pytest.skip("two players only")
    pyspiel.random_sim_test(load(chance_cls, 3), num_sims=1, serialize=True, verbose=False)


def test_chance_nodes_are_the_games_draws(chance_cls):
    game = load(chance_cls)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    chance_nodes = 0
    while not state.is_terminal() and chance_nodes < 30:
        if state.is_chance_node():
            chance_nodes += 1
            outcomes = state.chance_outcomes()
            actions, probs = zip(*outcomes, strict=True)
            assert abs(sum(probs) - 1) < 1e-9 and all(0 <= a < game.max_chance_outcomes() for a in actions)
            assert outcomes == state.hunters_game.chance_outcomes()
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.information_state_string(0)
            legal = state.legal_actions()
            assert legal == state.hunters_game.compact.legal()
            state.apply_action(int(rng.choice(legal)))
    assert chance_nodes > 0
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    for seat in (0, 1):  # the deserialised state tells each seat the same
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.observation_string(seat) == state.observation_string(seat)
    clone = state.clone()
    assert clone.history() == state.history() and clone.hunters_game is not state.hunters_game


def test_observation_tensor_is_the_observe_fields(chance_cls):
    game = load(chance_cls)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    flat = np.concatenate([a.reshape(-1).astype(np.float32) for a in state.hunters_game.observe(0).values()])
    assert np.array_equal(np.asarray(state.observation_tensor(0)), flat)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_information_state_tensor_is_the_information_state_fields(chance_cls):
    game = load(chance_cls)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        for p in range(2):
            info = state.hunters_game.observe(p, view="information_state")
            flat = np.concatenate([a.reshape(-1).astype(np.float32) for a in info.values()])
            assert np.array_equal(np.asarray(state.information_state_tensor(p)), flat)
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_mcts_plays(chance_cls):
    game = load(chance_cls)
    bot = mcts.MCTSBot(
        game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), random_state=np.random.RandomState(1)
    )
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(6 if chance_cls is not TinyGame else 100):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    if chance_cls is TinyGame:
        assert state.is_terminal() and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_max_game_length_is_the_games_bound_on_decisions_and_chance_nodes(chance_cls):
    info = chance_cls.INFO
    name = register(chance_cls, perfect_information=True if chance_cls is TinyGame else None)
    for players in range(max(2, info.min_players), info.max_players + 1):
        game = pyspiel.load_game(f"{name}(players={players})")
        assert game.max_game_length() == info.max_game_length
        for seed in range(12):
            state = game.new_initial_state()
            rng = np.random.default_rng(seed)
            decisions = chance = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=probs)))
                    chance += 1
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
                    decisions += 1
            assert decisions <= info.max_game_length and chance <= info.max_game_length


SEEDED = [c for c in CHANCE_GAMES if supports(c, SeededChance)]


@pytest.mark.parametrize("cls", SEEDED, ids=[c.INFO.id for c in SEEDED])
def test_a_seed_parameter_plays_the_seeded_game(cls):
    """``python_hunters_<id>(players=p,seed=s)``: each chance node has one outcome, probability 1,
    the one ``Game.new(p, seed=s)`` deals there; played with the same actions, the episode is that
    game (same views at every decision, same returns), whatever samples the chance nodes."""
    name = register(cls)
    for players, seed in ((2, 0), (2, 7), (3, 123456789)):
        game = pyspiel.load_game(f"{name}(players={players},seed={seed})")
        assert game.get_parameters()["seed"] == seed
        state = game.new_initial_state()
        twin = cls.new(players=players, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                ((outcome, p),) = state.chance_outcomes()
                assert p == 1.0 and state.legal_actions() == [outcome]
                state.apply_action(int(rng.choice([outcome])))
                continue
            assert state.hunters_game.view() == twin.view()
            code = int(rng.choice(state.legal_actions()))
            state.apply_action(code)
            twin.compact.play(code)
        assert twin.is_over and state.returns() == [float(r) for r in _rewards(twin.scores)]
        assert state.hunters_game.scores == twin.scores
    pyspiel.random_sim_test(pyspiel.load_game(f"{name}(seed=3)"), num_sims=1, serialize=True, verbose=False)
    bad = pyspiel.load_game(f"{name}(seed=3)").new_initial_state()
    wrong = next(o for o, _ in bad.hunters_game.chance_outcomes() if o != bad.chance_outcomes()[0][0])
    with pytest.raises(Exception, match="one outcome"):
        bad.apply_action(wrong)
    with pytest.raises(Exception, match="seed"):
        pyspiel.load_game(f"{name}(seed=-5)")


def _rewards(scores):
    from hunters.learn import terminal_rewards

    return terminal_rewards(scores)


def test_a_game_without_seeded_chance_refuses_a_seed():
    name = register(TinyGame, perfect_information=True)
    with pytest.raises(Exception, match="SeededChance"):
        pyspiel.load_game(f"{name}(seed=1)")
    assert pyspiel.load_game(f"{name}()").new_initial_state() is not None


def test_information_state_strings_are_bounded_over_long_games(chance_cls):
    """Every observation and information-state string stays within `string_bound` of the layout, a
    size that does not grow with the game (imperfect information: the seat's information state, a
    summary, not its history), over whole random games of every player count; and an
    imperfect-information game's string names its tensor: equal strings, equal tensors."""
    name = register(chance_cls, perfect_information=True if chance_cls is TinyGame else None)
    info = chance_cls.INFO
    longest = 0
    for players in range(max(2, info.min_players), min(info.max_players, 4) + 1):
        game = pyspiel.load_game(f"{name}(players={players})")
        imperfect = game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        layout = chance_cls.new(players=players, seed=0, chance="external").learn_layout()
        bound = string_bound(layout, players)
        # a perfect-information game's information state is its history: at most max_game_length
        # decisions and as many chance nodes, each a number below the larger of the two spaces
        widest = len(str(max(layout.actions, game.max_chance_outcomes())))
        history_bound = len(f"p{players - 1} ") + 2 * info.max_game_length * (widest + 2)
        for seed in range(2):
            state = game.new_initial_state()
            rng = np.random.default_rng(seed)
            seen: dict[str, bytes] = {}
            decisions = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(int(rng.choice(outcomes, p=probs)))
                    continue
                for p in range(players):
                    text = state.information_state_string(p)
                    assert len(state.observation_string(p)) <= bound
                    assert len(text) <= (bound if imperfect else history_bound)
                    if imperfect:
                        tensor = np.asarray(state.information_state_tensor(p)).tobytes()
                        assert seen.setdefault(text, tensor) == tensor
                    longest = max(longest, len(text))
                state.apply_action(int(rng.choice(state.legal_actions())))
                decisions += 1
            assert decisions > (3 if chance_cls is TinyGame else 30)
    if chance_cls.INFO.id == "jaeger_sammler":
        assert longest < 10_000  # (the history of observations it replaced passed 400,000 by decision 33)
