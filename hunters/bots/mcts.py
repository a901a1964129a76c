"""`mcts`: information-set Monte Carlo tree search inside the game core.

Every iteration draws the hidden information anew from what the seat may know (a determinization),
walks down one tree shared by all determinizations (UCB1 with availability counts), adds one node,
and plays a uniformly random game to the end (Jäger: the "stay" policy). The whole search runs in C
without the GIL (`hunters/_core/mcts.pxi`, through `CoreSearch.search`); a game without a search of
its own is searched the same way in Python (`python_search`, slow). The reward mixes the win with a
smooth score margin (`margin`, scale `GameInfo.reward_scale`).

In Jäger und Sammler a seat knows the pool of its opponents' face-down tiles but not who holds
which: each determinization deals that pool among them at random. The options, their tuning runs
and what the search misses: docs/bots.md (`mcts`).
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any, ClassVar

from hunters.capabilities import CoreSearch, SearchStats
from hunters.game_base import AnyGame

from .base import Bot, Observation, decision_seed

__all__ = ["MctsBot", "python_search", "reward"]


class MctsBot(Bot):
    """IS-MCTS. Options: `iterations` per decision (default 1000; 0 = time only), `seconds` per
    decision (default 0 = no limit; with both, whichever ends first; a time limit makes the bot
    depend on the machine's speed, so only iterations alone are deterministic), `c` (UCB
    exploration constant, default 0.25; rewards lie in [0, 1]), `margin` (weight of the score
    margin in the reward, default 1), `bare` (H&G playouts: probability of placing no piece, default
    0), `seed`."""

    name = "mcts"
    stop: bytearray | None = None
    """A byte another thread may set (to 1) to end the search under way at once (a server stopping a
    bot whose match is gone); the move then comes from the iterations done, if any."""

    OPTION_RANGES: ClassVar[dict[str, tuple[float, float]]] = {
        "iterations": (0, 10**9),
        "seconds": (0, 3600),
        "c": (0, 100),
        "margin": (0, 1),
        "bare": (0, 1),
        "seed": Bot.SEED,
    }

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float = 0.0,
        c: float = 0.25,
        margin: float = 1.0,
        bare: float = 0.0,
        seed: int = 0,
    ):
        if type(iterations) is not int or iterations < 0:
            raise ValueError("iterations must be an integer, 0 or more")
        if not isinstance(seconds, int | float) or seconds < 0:
            raise ValueError("seconds must be >= 0")
        if iterations == 0 and seconds == 0:
            raise ValueError("give iterations or seconds")
        if not isinstance(c, int | float) or c < 0:
            raise ValueError("c must be >= 0")
        if not isinstance(margin, int | float) or not 0 <= margin <= 1:
            raise ValueError("margin must be in [0, 1]")
        if not isinstance(bare, int | float) or not 0 <= bare <= 1:
            raise ValueError("bare must be in [0, 1]")
        self.iterations = iterations
        self.seconds = float(seconds)
        self.c = float(c)
        self.margin = float(margin)
        self.bare = float(bare)
        self.seed = seed
        self.last_iterations = 0
        """Iterations of the last decision."""
        self.last_stats: list[tuple[int, int, float]] = []
        """(index in the legal moves, visits, mean reward) of every root move at the last decision."""

    @property
    def spec(self) -> str:
        parts = [f"iterations={self.iterations}"]
        if self.seconds:
            parts.append(f"seconds={self.seconds:g}")
        parts += [f"c={self.c:g}", f"margin={self.margin:g}", f"bare={self.bare:g}", f"seed={self.seed}"]
        return "mcts:" + ",".join(parts)

    def choose(self, obs: Observation) -> Any:
        moves = obs.legal_moves()
        if len(moves) == 1:
            self.last_iterations, self.last_stats = 0, []
            return moves[0]
        game = obs.observed()
        options = {"bare": self.bare} if self.bare else {}
        seed = decision_seed(self.seed, obs)
        if isinstance(game, CoreSearch):
            found = game.search(self.iterations, self.seconds, self.c, self.margin, seed, stop=self.stop, **options)
        else:
            if self.bare:
                raise ValueError(f"bare is an option of a core's search; {obs.game_id} has none")
            found = python_search(obs, self.iterations, self.seconds, self.c, self.margin, seed, self.stop)
        self.last_iterations, self.last_stats = found.iterations, found.moves
        best, _, _ = max(found.moves, key=lambda s: (s[1], s[2], -s[0]))
        return moves[best]


def reward(game: AnyGame, seat: int, margin: float) -> float:
    """The reward of a finished game for `seat`, in [0, 1]: (1 − margin) × its share of the win
    + margin × (1 + tanh((own − best other) / INFO.reward_scale)) / 2 (what the cores compute too)."""
    scores, winners = game.scores, game.winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    best_other = max((s for p, s in enumerate(scores) if p != seat), default=scores[seat])
    smooth = (1.0 + math.tanh((scores[seat] - best_other) / game.INFO.reward_scale)) / 2.0
    return (1.0 - margin) * share + margin * smooth


def python_search(
    obs: Observation,
    iterations: int,
    seconds: float,
    c: float,
    margin: float,
    seed: int,
    stop: bytearray | None = None,
) -> SearchStats:
    """IS-MCTS in Python for a game without a search of its own: every iteration plays one
    determinization (`Observation.determinized`), walks the shared tree by UCB1 with availability
    counts, adds one node and plays uniformly random moves to the end (until `stop[0]` is set, when
    given). Slow, but any game that meets the contract gets a searching bot."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds if seconds else math.inf
    root = [json.dumps(m.to_json(), sort_keys=True) for m in obs.legal_moves()]
    visits: dict[tuple[str, ...], int] = {}
    totals: dict[tuple[str, ...], float] = {}
    avail: dict[tuple[str, ...], int] = {}
    done = 0
    while (iterations == 0 or done < iterations) and time.monotonic() < deadline and not (stop and stop[0]):
        game = obs.determinized(rng.getrandbits(64))
        path: tuple[str, ...] = ()
        visited: list[tuple[tuple[str, ...], int]] = []
        while not game.is_over:
            moves = list(game.legal_moves())
            children = [(*path, json.dumps(m.to_json(), sort_keys=True)) for m in moves]
            for child in children:
                avail[child] = avail.get(child, 0) + 1
            mover = game.player
            fresh = [i for i, child in enumerate(children) if child not in visits]
            if fresh:
                i = fresh[rng.randrange(len(fresh))]
            else:
                i = max(
                    range(len(children)),
                    key=lambda j: (
                        totals[children[j]] / visits[children[j]]
                        + c * math.sqrt(math.log(avail[children[j]]) / visits[children[j]])
                    ),
                )
            game.play(moves[i])
            path = children[i]
            visited.append((path, mover))
            if fresh:
                visits[path], totals[path] = 0, 0.0
                break
        while not game.is_over:
            legal = game.legal_moves()
            game.play(legal[rng.randrange(len(legal))])
        for node, mover in visited:
            visits[node] += 1
            totals[node] += reward(game, mover, margin)
        done += 1
    stats = []
    for i, key in enumerate(root):
        n = visits.get((key,), 0)
        stats.append((i, n, totals[(key,)] / n if n else 0.0))
    return SearchStats(done, stats)
