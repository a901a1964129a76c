"""An external bot: plays uniformly random legal moves for one seat of a match through the gRPC API.

    python examples/bots/random_bot.py ADDRESS MATCH TOKEN SEAT [SEED]

In the arena: ``hunters arena --bot "cmd:python examples/bots/random_bot.py {address} {match} {token}
{seat}" --bot greedy``. A bot in any language does the same: watch the match, and when the state says
its seat is to move (at the latest version), list the legal moves and play one with its seat token.
"""

import random
import sys

from hunters.client import Client


def main(argv: list[str]) -> int:
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    address, match, token, seat = argv[1], argv[2], argv[3], int(argv[4])
    rng = random.Random(int(argv[5]) if len(argv) > 5 else 0)
    with Client(address) as client:
        for ev in client.watch(match, 0):
            if ev.match_over:
                return 0
            if ev.state.player == seat and ev.version == client.get_match(match).version:
                moves = client.legal_moves(match)
                client.play(match, rng.choice(moves)[0], token=token, expected_version=ev.version)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
