"""An external bot: plays uniformly random legal moves for one seat of a match through the gRPC API.

    python examples/bots/random_bot.py ADDRESS MATCH TOKEN SEAT [SEED]

In the arena: ``hunters arena --bot "cmd:python examples/bots/random_bot.py {address} {match} {token}
{seat}" --bot greedy``. It plays on its seat stream (`Client.play_seat`): the server offers each
turn with the legal moves and their action codes, and the bot answers with one code.
"""

import random
import sys

from hunters.client import Client


def main(argv: list[str]) -> int:
    if len(argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    address, match, token = argv[1], argv[2], argv[3]  # SEAT (argv[4]): the token's seat
    rng = random.Random(int(argv[5]) if len(argv) > 5 else 0)
    with Client(address) as client:
        client.play_seat(match, token, lambda turn: rng.choice(turn.actions))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
