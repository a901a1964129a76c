"""The published conformance vectors of every game with a suite (docs/conformance.md): they follow
the schema, the engine makes exactly them again, the core's perft and the generic Python perft
give their counts, their replays play back with the same legal-move counts, events and scores, and
together they exercise every rule the game's suite names. (Each game's tests check them against
its reference oracle too: tests/<game>/test_conformance.py.)"""

import json

import jsonschema
import pytest

import hunters
from hunters.conformance import vectors
from hunters.perft import python_perft

GAMES = vectors.games_with_vectors()


def test_both_built_in_games_publish_vectors():
    assert len(GAMES) >= 2


@pytest.fixture(scope="module")
def validator():
    schema = json.loads(vectors.SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_line_follows_the_schema_and_names_are_unique(game_id, validator):
    found = vectors.load(game_id)
    assert {v["type"] for v in found} == {"perft", "replay"}
    for v in found:
        validator.validate(v)
        assert v["game"] == v["record"]["game"] == game_id
    names = [(v["type"], v["name"]) for v in found]
    assert len(names) == len(set(names))


def test_the_schema_refuses_a_line_without_its_kind_s_fields(validator):
    perft = vectors.load(GAMES[0], "perft")[0]
    for field in ("counts", "divide"):
        bad = {k: v for k, v in perft.items() if k != field}
        assert not validator.is_valid(bad), field
    assert not validator.is_valid(dict(perft, version=2))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_engine_makes_the_published_vectors_again(game_id):
    made: dict[str, list[str]] = {name: [] for name in vectors.FILES}
    for name, vector in vectors.generate(game_id):
        made[name].append(vectors.dumps(vector))
    for name, lines in made.items():
        shipped = (vectors.vector_folder(game_id) / name).read_text().splitlines()
        assert lines == shipped, f"{name}: run `hunters conformance --generate` and review the diff"


@pytest.mark.parametrize("game_id", GAMES)
def test_perft_vectors_reach_depth_three_and_agree_with_both_perfts(game_id):
    cls = hunters.games.get(game_id)
    found = vectors.load(game_id, "perft")
    assert max(v["depth"] for v in found if not v["chance"]) >= 3
    assert any(v["chance"] for v in found)
    for v in found:
        game = cls.from_record(v["record"])
        chance = v["chance"]
        assert [game.perft(d, chance=chance) for d in range(v["depth"] + 1)] == v["counts"], v["name"]
        assert sum(row["count"] for row in v["divide"]) == v["counts"][-1], v["name"]
        small = [d for d in range(1, v["depth"] + 1) if v["counts"][d - 1] <= 2_000]
        for d in small[:2]:
            assert python_perft(game, d, chance=chance) == v["counts"][d], (v["name"], d)


@pytest.mark.parametrize("game_id", GAMES)
def test_replays_play_back_step_by_step(game_id):
    cls = hunters.games.get(game_id)
    for v in vectors.load(game_id, "replay"):
        game = cls.from_record(dict(v["record"], moves=[]))
        assert [vectors.event_json(e) for e in game.events] == v["setup_events"], v["name"]
        for i, step in enumerate(v["steps"]):
            where = (v["name"], i)
            assert game.player == step["player"], where
            assert len(game.legal_moves()) == step["legal"], where
            events = game.play(cls.move_from_json(step["move"]))
            assert [vectors.event_json(e) for e in events] == step["events"], where
            assert game.scores == step["scores"], where
        assert game.is_over == v["final"]["over"] and game.is_over, v["name"]
        assert game.scores == v["final"]["scores"] and game.winners == v["final"]["winners"], v["name"]
        assert [m for m in game.to_record()["moves"]] == v["record"]["moves"], v["name"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_replays_exercise_every_rule_the_suite_names(game_id):
    suite = vectors.suite(game_id)
    replays = vectors.load(game_id, "replay")
    seen: set[str] = set()
    for v in replays:
        assert sorted(suite.covered(v)) == v["covers"], v["name"]
        seen |= set(v["covers"])
    assert set(suite.RULES) <= seen, sorted(set(suite.RULES) - seen)
