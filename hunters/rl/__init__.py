"""Learning environments for every game with the learning surface (`hunters.learn`): PettingZoo
(`hunters.rl.pettingzoo`), Gymnasium (`hunters.rl.gym`) and OpenSpiel (`hunters.rl.openspiel`).
Optional extra: ``pip install hunters-engine[rl]``; see docs/learning.md.

``import hunters.rl`` imports none of them (nor numpy): each function below imports its submodule,
and each submodule its library, when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .gym import HuntersEnv, HuntersVectorEnv
    from .pettingzoo import HuntersAECEnv

__all__ = ["aec_env", "gym_env", "register_gymnasium", "register_openspiel", "vector_env"]


def aec_env(game: Any, players: int = 2, **kwargs: Any) -> HuntersAECEnv:
    """The PettingZoo AEC environment of a game (`hunters.rl.pettingzoo.aec_env`)."""
    from .pettingzoo import aec_env as make

    return make(game, players=players, **kwargs)


def gym_env(game: Any, players: int = 2, **kwargs: Any) -> HuntersEnv:
    """The Gymnasium single-agent environment of a game, other seats bots (`hunters.rl.gym.HuntersEnv`)."""
    from .gym import HuntersEnv

    return HuntersEnv(game, players=players, **kwargs)


def vector_env(game: Any, num_envs: int = 256, players: int = 2, **options: Any) -> HuntersVectorEnv:
    """The Gymnasium vector environment over the game's core batch (`hunters.rl.gym.HuntersVectorEnv`)."""
    from .gym import HuntersVectorEnv

    return HuntersVectorEnv(game, num_envs=num_envs, players=players, **options)


def register_openspiel(game: Any, perfect_information: bool | None = None) -> str:
    """Register a game with OpenSpiel (`hunters.rl.openspiel.register`); returns its short name."""
    from .openspiel import register

    return register(game, perfect_information)


def register_gymnasium() -> list[str]:
    """Register the Gymnasium ids of every registered game with a learning surface
    (`hunters.rl.gym.register_envs`; idempotent); returns them. The package's ``gymnasium.envs``
    entry point names this function."""
    from .gym import register_envs

    return register_envs()
