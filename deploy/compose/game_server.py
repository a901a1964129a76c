"""Stand-in game server for deploy/compose: creates a match on the hunters sidecar (with the operator's
create token), plays it to the end for every seat, and checks it is listed; exit status 0 when it all
went through. A real game server would hand the seat tokens to its players instead."""

import os
import sys

from hunters.client import Client, ServiceError
from hunters.v1 import state_pb2

address = os.environ.get("HUNTERS_ADDRESS", "hunters:50051")
token = os.environ["HUNTERS_CREATE_TOKEN"]

with Client(address) as client:
    try:
        client.create_match("jaeger_sammler", players=2)
        sys.exit("game-server: the sidecar created a match without the create token")
    except ServiceError as err:
        print(f"game-server: without the token, CreateMatch is refused ({err.code.name})")
    match = client.create_match("jaeger_sammler", players=2, seed=2024, token=token)
    state = match.state
    while state.status != state_pb2.GAME_STATUS_OVER:
        move, _ = client.legal_moves(match.match_id)[0]
        state = client.play(match.match_id, move, token=match.seat_tokens[state.player]).state
    version = state.version
    listed = any(m.match_id == match.match_id for m in client.all_matches())
    print(f"game-server: match {match.match_id} over after {version} moves, scores {list(state.scores)}")
    sys.exit(0 if listed and version > 0 else 1)
