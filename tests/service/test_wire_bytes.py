"""The typed messages' bytes, pinned: a game played by its wire adapter (every move, event and state,
the game info) and one hand-built message of each kind hash to the digests below. Reorganizing
proto/hunters/v1 (a game's messages in a file of their own) keeps hunters.v1 byte-for-byte the same;
a change here is a wire change (a new v2 package, not an edit of v1)."""

from __future__ import annotations

import hashlib

import pytest
from google.protobuf import json_format

from hunters import wire
from hunters.v1 import events_pb2, games_pb2, matches_pb2, moves_pb2, state_pb2

PLAYED = {
    "carcassonne_hg": "e00a172510e0ba9c7ec10cf32d34329931f30603c5d067e61f1963ee3da3f6a3",
    "jaeger_sammler": "c67d07bddd14130bad8ea1d2d02c90c83861fe753df46364bf8495d9074dde63",
}


def _played(game_id: str, moves: int = 40) -> bytes:
    """Every message the adapter makes along a fixed game: each move (its first legal move), its
    events, the state after it, then GetGameInfo's details; each message's bytes length-prefixed."""
    adapter = wire.adapter(game_id)
    game = adapter.Game.new(players=2, seed=7)
    messages = [adapter.state(game, 0)]
    for version in range(1, moves + 1):
        if game.is_over:
            break
        move = game.legal_moves()[0]
        messages.append(adapter.move_to_proto(move))
        messages += [adapter.event(e) for e in game.play(move)]
        messages.append(adapter.state(game, version))
    info = adapter.game_info()
    assert info is not None
    messages.append(games_pb2.GetGameInfoResponse(**{info[0]: info[1]}))
    out = b""
    for m in messages:
        data = m.SerializeToString(deterministic=True)
        out += len(data).to_bytes(4, "big") + data
    return out


@pytest.mark.parametrize("game_id", sorted(PLAYED))
def test_a_played_game_serializes_to_the_same_bytes(game_id):
    assert hashlib.sha256(_played(game_id)).hexdigest() == PLAYED[game_id]


# One message of each shared oneof per game, from its JSON form, and its bytes.
BUILT = [
    (
        moves_pb2.Move,
        {
            "carcassonne": {
                "x": -3,
                "y": 2,
                "rotation": 1,
                "occupant": {"kind": "PIECE_KIND_HUT", "zone": 457},
                "retake": 12,
            }
        },
        "0a0f0805100418012205080210c903280c",
    ),
    (moves_pb2.Move, {"jaeger": {"steps": [{"src": 17, "dst": 30}, {"src": 4}]}}, "120a0a040811101e0a020804"),
    (
        events_pb2.Event,
        {
            "carcassonneScore": {
                "decision": 9,
                "kind": "CARCASSONNE_SCORE_KIND_MEADOW",
                "seats": [0, 2],
                "points": 7,
                "feature": 301,
            }
        },
        "0a0d080910071a020002200728ad02",
    ),
    (
        events_pb2.Event,
        {
            "jaeger": {
                "turn": 3,
                "season": "SEASON_WINTER",
                "step": 1,
                "kind": "JAEGER_EVENT_KIND_SEASON_END",
                "seat": 1,
                "space": 44,
                "tile": {"kind": "JAEGER_TILE_KIND_MAMMOTH", "mammothValue": 9},
                "detail": "JAEGER_EVENT_DETAIL_STALL",
            }
        },
        "121408031002180120052801302c3a04080910094003",
    ),
    (
        state_pb2.MatchState,
        {
            "game": "carcassonne_hg",
            "players": 2,
            "carcassonne": {
                "tile": 5,
                "extraTurn": True,
                "board": [{"x": -1, "y": 0, "tile": 3, "rotation": 2}],
                "occupants": [{"zone": 31, "seat": 1, "kind": "PIECE_KIND_MEEPLE"}],
                "meeples": [4, 5],
                "huts": [2, 2],
                "discards": [60],
                "normalPile": 50,
                "menhirPile": 12,
            },
        },
        "0a0e636172636173736f6e6e655f686710025223080510011a060801180320022206081f100118012a020405320202023a013c4032480c",
    ),
    (
        state_pb2.MatchState,
        {
            "game": "jaeger_sammler",
            "jaeger": {
                "season": "SEASON_SUMMER",
                "turn": 4,
                "board": [
                    {"space": 2, "tile": {"kind": "JAEGER_TILE_KIND_HERBS"}, "characters": [0], "supplyPacks": [1]}
                ],
                "collections": [{"seat": 0, "berries": 1, "faceDown": 2, "mammoths": [3], "weapons": 1}],
                "scoreBreakdown": [{"seat": 1, "food": 2, "total": 2}],
                "tilesLeft": 30,
                "idleTurns": 1,
                "summerMammothValue": 8,
                "summerMammothSeat": 0,
            },
        },
        "0a0e6a61656765725f73616d6d6c65725a2d080110041a0c0802120208031a0100220101220910014a0103500170022a06080110023002301e380148085000",
    ),
    (
        matches_pb2.GameConfig,
        {
            "game": "carcassonne_hg",
            "players": 3,
            "seed": "11",
            "carcassonne": {"normalDeck": {"tiles": [4, 8]}, "menhirDeck": {"tiles": [80]}},
        },
        "0a0e636172636173736f6e6e655f68671003180b520b0a040a02040812030a0150",
    ),
    (
        matches_pb2.GameConfig,
        {
            "game": "jaeger_sammler",
            "players": 2,
            "jaeger": {
                "board": {
                    "grid": {
                        "rows": 3,
                        "cols": 4,
                        "offset": "JAEGER_GRID_OFFSET_EVEN_R",
                        "missing": [{"row": 0, "col": 1}],
                        "summerCamps": [{"row": 1, "col": 1}],
                    }
                },
                "mammothsSummer": [3, 5],
                "straightJumps": True,
                "stallRounds": 0,
                "winterStart": "JAEGER_WINTER_START_SEAT0",
                "ties": "JAEGER_TIES_NO_WINNER",
                "summerLayout": {"tiles": [{"space": 1, "tile": {"kind": "JAEGER_TILE_KIND_JUG"}}]},
                "start": [{"spaces": [1, 2]}],
                "openCollections": True,
            },
        },
        "0a0e6a61656765725f73616d6d6c657210025a320a120a10080310041802220210012a040801100112020305200128003002380242080a0608011202080452040a0201025801",
    ),
]


@pytest.mark.parametrize(("message", "data", "hex_bytes"), BUILT)
def test_a_message_of_each_game_serializes_to_the_same_bytes(message, data, hex_bytes):
    assert json_format.ParseDict(data, message()).SerializeToString(deterministic=True).hex() == hex_bytes
