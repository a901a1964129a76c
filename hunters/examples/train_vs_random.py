"""Learn to beat the `random` bot with numpy alone, three ways (``--method``):

``codes`` (fast): REINFORCE on one preference per compact code, a softmax over the legal codes, no
observation features at all. Compact codes say what kind of decision a move is; in Jäger und
Sammler (which step slots, leaving the board or not) that is enough to beat uniform play within
seconds; in Hunters & Gatherers a code also names a frontier position, too sparse to learn so.

``afterstates`` (slow, seconds an episode for H&G): for each legal code of the learner the script
plays it on a copy of the env's game (`GameBase.clone`, `compact.play`) and values the position
after it by ``w . phi``, where ``phi`` is the learner's observation of that position
(`Game.observe(seat)`, every field flattened and divided by its bound, plus a constant). After
each episode every afterstate the learner chose is moved toward the episode's terminal reward (+1
win, 0 shared first place, -1 loss). It beats `random` in H&G (93% after 150 episodes); in Jäger
und Sammler its linear value of the visible score misleads it. Neither method is game-specific:
any game with the learning surface trains the same way.

``features`` (fast, for a game whose layout names afterstate features: H&G): the same linear
afterstate value, but over the table the core fills for every legal move (the env option
``afterstates=True``: ``info["legal_codes"]`` and ``info["afterstates"]``, `Afterstates.learn_afterstates`:
points, lead and estimated lead after the move, pieces left and placed, ...), so no copy is played
in Python.

    python -m hunters.examples.train_vs_random --game GAME --method codes --episodes 1000
    python -m hunters.examples.train_vs_random --game GAME --method afterstates --episodes 150
    python -m hunters.examples.train_vs_random --game GAME --method features --episodes 300

(GAME a registered game id; docs/learning.md gives each game's fast method and measured results.
``python -m hunters.examples copy DIR`` copies this file out to change it.)

Prints the win rate against `random` (greedy play of the value, fresh seeds) before and after
training, and the seconds it took.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

import hunters
from hunters.capabilities import Learnable, supports
from hunters.rl import gym_env

Vector = npt.NDArray[np.float32]


class Features:
    """phi(game, seat): the seat's observation, every field flattened and scaled into [-1, 1]."""

    def __init__(self, layout: Any):
        self.fields = [(f.name, 1.0 / max(1.0, float(np.max(np.abs([f.low, f.high]))))) for f in layout.fields]
        self.buffers = {f.name: np.zeros(f.shape, np.dtype(f.dtype)) for f in layout.fields}

    def __call__(self, game: Any, seat: int) -> Vector:
        obs = game.observe(seat, self.buffers)
        parts = [obs[name].reshape(-1).astype(np.float32) * scale for name, scale in self.fields]
        return np.concatenate([*parts, np.ones(1, np.float32)])


def choose(env: Any, phi: Features, w: Vector, rng: np.random.Generator, epsilon: float) -> tuple[int, Vector]:
    """(code, features of its afterstate): the legal code with the best afterstate value."""
    game, seat = env.unwrapped.game, env.unwrapped.seat
    codes = game.compact.legal()
    feats = []
    for code in codes:
        after = game.clone()
        after.compact.play(code)
        feats.append(phi(after, seat))
    values = np.stack(feats) @ w
    if rng.random() < epsilon:
        k = int(rng.integers(len(codes)))
    else:
        k = int(rng.choice(np.flatnonzero(values >= values.max() - 1e-9)))
    return int(codes[k]), feats[k]


def episode(
    env: Any, phi: Features, w: Vector, rng: np.random.Generator, seed: int | None, epsilon: float
) -> tuple[float, list[Vector]]:
    """One episode; returns (terminal reward, features of the afterstates chosen)."""
    env.reset(seed=seed)
    chosen = []
    while True:
        code, f = choose(env, phi, w, rng, epsilon)
        chosen.append(f)
        _obs, reward, term, trunc, _ = env.step(code)
        if term or trunc:
            return float(reward), chosen


def win_rate(env: Any, phi: Features, w: Vector, games: int, seed: int) -> float:
    """Share of `games` episodes won outright (reward +1), seeds `seed`, `seed + 1`, ..."""
    rng = np.random.default_rng(seed)
    return sum(episode(env, phi, w, rng, seed + g, 0.0)[0] > 0 for g in range(games)) / games


def masked_softmax(theta: npt.NDArray[np.float64], legal: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    z = np.exp(theta[legal] - theta[legal].max())
    return np.asarray(z / z.sum())


def play_codes(
    env: Any, theta: npt.NDArray[np.float64], rng: np.random.Generator, seed: int | None, sample: bool
) -> tuple[float, list[tuple[npt.NDArray[np.intp], int]]]:
    """One episode of the code-preference policy; returns (reward, [(legal codes, index chosen)])."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        legal = obs["action_mask"].view(np.bool_).nonzero()[0]
        if sample:
            k = int(rng.choice(len(legal), p=masked_softmax(theta, legal)))
        else:
            best = theta[legal]
            k = int(rng.choice(np.flatnonzero(best == best.max())))
        steps.append((legal, k))
        obs, reward, term, trunc, _ = env.step(int(legal[k]))
        if term or trunc:
            return float(reward), steps


def train_codes(game: Any, episodes: int, seed: int = 0, eval_games: int = 400, lr: float = 0.05) -> dict[str, Any]:
    """REINFORCE on a preference per compact code (terminal reward, running-mean baseline)."""
    env = gym_env(game, players=2, opponents="random", seat="random")
    theta = np.zeros(env.layout.actions)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()

    def rate() -> float:
        r = np.random.default_rng(10**6)
        return sum(play_codes(env, theta, r, 10**6 + g, False)[0] > 0 for g in range(eval_games)) / eval_games

    before, baseline = rate(), 0.0
    env.reset(seed=seed)
    for _ in range(episodes):
        reward, steps = play_codes(env, theta, rng, None, True)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for legal, k in steps:  # the gradient of log softmax on the legal codes: onehot - p
            p = masked_softmax(theta, legal)
            p[k] -= 1.0
            theta[legal] -= lr * advantage * p
    return {"before": before, "after": rate(), "episodes": episodes, "seconds": time.perf_counter() - start}


def train(game: Any, episodes: int, seed: int = 0, eval_games: int = 100, lr: float = 0.1) -> dict[str, Any]:
    """The afterstate value (see the module docstring)."""
    env = gym_env(game, players=2, opponents="random", seat="random")
    phi = Features(env.layout)
    w = np.zeros(phi(env.game, 0).size, np.float32)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    before = win_rate(env, phi, w, eval_games, 10**6)
    env.reset(seed=seed)
    for _ in range(episodes):
        reward, chosen = episode(env, phi, w, rng, None, epsilon=0.1)
        for f in chosen:  # normalised least-mean-squares step toward the final reward
            w += lr * (reward - float(f @ w)) * f / float(f @ f)
    after = win_rate(env, phi, w, eval_games, 10**6)
    return {"before": before, "after": after, "episodes": episodes, "seconds": time.perf_counter() - start}


def play_features(
    env: Any, w: Vector, rng: np.random.Generator, seed: int | None, epsilon: float
) -> tuple[float, list[Vector]]:
    """One episode valuing the core's afterstate rows by ``w``; returns (reward, rows chosen)."""
    _obs, info = env.reset(seed=seed)
    chosen = []
    while True:
        codes, table = info["legal_codes"], info["afterstates"]
        if rng.random() < epsilon:
            k = int(rng.integers(len(codes)))
        else:
            values = table @ w
            k = int(rng.choice(np.flatnonzero(values >= values.max() - 1e-6)))
        chosen.append(table[k].copy())
        _obs, reward, term, trunc, info = env.step(int(codes[k]))
        if term or trunc:
            return float(reward), chosen


def train_features(game: Any, episodes: int, seed: int = 0, eval_games: int = 400, lr: float = 0.05) -> dict[str, Any]:
    """A linear value of the core's afterstate features, moved toward each episode's reward."""
    env = gym_env(game, players=2, opponents="random", seat="random", afterstates=True)
    w = np.zeros(len(env.layout.afterstates), np.float32)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()

    def rate() -> float:
        r = np.random.default_rng(10**6)
        return sum(play_features(env, w, r, 10**6 + g, 0.0)[0] > 0 for g in range(eval_games)) / eval_games

    before = rate()
    env.reset(seed=seed)
    for _ in range(episodes):
        reward, chosen = play_features(env, w, rng, None, epsilon=0.1)
        for f in chosen:  # normalised least-mean-squares step toward the final reward
            w += lr * (reward - float(f @ w)) * f / float(f @ f)
    after = rate()
    return {"before": before, "after": after, "episodes": episodes, "seconds": time.perf_counter() - start}


def learnable_games() -> list[str]:
    """The registered games with the learning surface."""
    return [g for g in hunters.games.ids() if supports(hunters.games.get(g), Learnable)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", choices=learnable_games(), help="default: every learnable game")
    parser.add_argument("--method", choices=("codes", "afterstates", "features"), default="codes")
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, help="games of each evaluation (default: 400; afterstates 100)")
    args = parser.parse_args(argv)
    games = [args.game] if args.game else learnable_games()
    if args.method == "features" and not args.game:  # only games whose layout names afterstate features
        games = [g for g in games if gym_env(g).layout.afterstates]
    for game_id in games:
        method = {"codes": train_codes, "afterstates": train, "features": train_features}[args.method]
        sizes = {} if args.eval_games is None else {"eval_games": args.eval_games}
        r = method(game_id, args.episodes, seed=args.seed, **sizes)
        print(
            f"{game_id}: win rate against random {r['before']:.0%} untrained -> {r['after']:.0%} "
            f"after {r['episodes']} episodes of {args.method} ({r['seconds']:.0f} s)"
        )


if __name__ == "__main__":
    main()
