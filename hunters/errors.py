"""Errors shared by every game: values with a machine-readable reason and a human message."""

from __future__ import annotations

from typing import Any


class IllegalMoveError(ValueError):
    """A move that the rules refuse, or that is malformed. The game is left unchanged.

    `reason` is a stable upper-case code (e.g. ``SIDE_MISMATCH``) that services map onto error
    details; `message` says why in words; `move` is what was submitted."""

    def __init__(self, reason: str, message: str, move: Any = None):
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.move = move


class InvalidRecordError(ValueError):
    """A game record that is malformed or does not replay."""


class InvalidOptionError(ValueError, TypeError):
    """A game option that is unknown or out of its range: every game raises this one type. It is a
    ValueError, and a TypeError too, as Python's own refusal of an unknown keyword argument is."""


class NotSupportedError(LookupError):
    """A game asked for something it does not offer: a capability it does not declare (a search of
    its own, for the `strong` bot and the analysis of positions). `reason` is ``NOT_SUPPORTED``;
    the message names the game and what it lacks."""

    reason = "NOT_SUPPORTED"


class PerftStopped(Exception):
    """A perft that was stopped before its count was complete: `reason` is ``STOPPED`` (its stop
    byte was set) or ``NODE_LIMIT`` (it would have expanded more positions than it was allowed)."""

    def __init__(self, reason: str, nodes: int):
        super().__init__(f"{reason}: perft stopped after {nodes} positions expanded")
        self.reason = reason
        self.nodes = nodes
