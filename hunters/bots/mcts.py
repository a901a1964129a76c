"""`mcts`: information-set Monte Carlo tree search inside the game core.

Every iteration draws the hidden information anew from what the seat may know (a determinization:
the undrawn tiles of both piles in Hunters & Gatherers; the winter deck before winter and the
other seats' face-down tiles in Jäger und Sammler), walks down one tree shared by all
determinizations (edges are moves as their maker sees them; UCB1 with availability counts among
the moves legal in this determinization), adds one node, and plays a uniformly random game to the
end (Jäger: the "stay" policy, which leaves the board only when nothing else is legal). The whole
search runs in C without the GIL (`hunters/_core/mcts.pxi`). The move played is the root's most
visited (then best mean reward, then lowest code).

Reward of a finished playout for a seat: (1 − margin) × its share of the win (ties share) + margin ×
a smooth score margin, (1 + tanh((own − best other) / scale)) / 2, scale 20 points (H&G) or 10
(Jäger). The defaults (margin 1, c 0.25) won most in short 2-player H&G tuning runs against greedy
(24 games each: c 0.7/margin 0.1 50%, c 0.4/margin 1 71%, c 0.25/margin 1 83%, c 0.15/margin 1 63%,
c 0.25/margin 0.7 71%; the intervals overlap): the margin separates moves that random playouts
rarely turn into a different winner. `bare` (H&G only, default 0): the probability that a playout
move places no piece; in the same kind of run 0.5 won 83% and 0.8 67%, no better than 0 (83%), so
playouts stay uniform by default.

Jäger simplification: the seat knows the pool of its opponents' face-down tiles (every tile lay face
up before it was taken) but not who holds which; each determinization deals that pool among the
opponents at random, each keeping its number. A player who remembers every take knows more; with
two players nothing is lost.
"""

from __future__ import annotations

from typing import Any

from .base import Bot, Observation, decision_seed

__all__ = ["MctsBot"]

_MARGIN_SCALE = {"carcassonne_hg": 20.0, "jaeger_sammler": 10.0}


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
            raise ValueError("iterations must be an int >= 0")
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
        """(core move code, visits, mean reward) of every root move at the last decision."""

    @property
    def spec(self) -> str:
        parts = [f"iterations={self.iterations}"]
        if self.seconds:
            parts.append(f"seconds={self.seconds:g}")
        parts += [f"c={self.c:g}", f"margin={self.margin:g}", f"bare={self.bare:g}", f"seed={self.seed}"]
        return "mcts:" + ",".join(parts)

    def choose(self, obs: Observation) -> Any:
        core: Any = getattr(obs._game, "_core", None)
        if not hasattr(core, "mcts"):
            raise TypeError(f"mcts needs a game core with the search built in; {obs.game_id} has none")
        moves = obs.legal_moves()
        if len(moves) == 1:
            self.last_iterations, self.last_stats = 0, []
            return moves[0]
        done, stats = core.mcts(
            self.iterations,
            self.seconds,
            self.c,
            self.margin,
            _MARGIN_SCALE.get(obs.game_id, 10.0),
            decision_seed(self.seed, obs),
            self.bare,
            self.stop,
        )
        self.last_iterations, self.last_stats = done, stats
        code, _, _ = max(stats, key=lambda s: (s[1], s[2], -s[0]))
        return moves[core.legal_codes().index(code)]
