"""Moves and events: the structured vocabulary for people and protocols."""

from __future__ import annotations

from typing import Any, NamedTuple


class Step(NamedTuple):
    """One step of a character of the player to move: from space `src` to space `dst`, or off the
    board when `dst` is None. Characters of one player are alike, so a step names spaces, not pieces.

    A step is a move to a neighbouring space, a cave jump (cave to any other cave), or leaving the
    board. A jump over an occupied tile is two steps of one character: onto the occupied tile, and on
    from it."""

    src: int
    dst: int | None

    @property
    def leaves(self) -> bool:
        """True when the step takes the character off the board."""
        return self.dst is None

    def to_json(self) -> dict[str, Any]:
        return {"src": self.src, "dst": self.dst}

    @classmethod
    def from_json(cls, data: Any) -> Step:
        if isinstance(data, dict):
            return cls(data["src"], data.get("dst"))
        if isinstance(data, (list, tuple)) and len(data) == 2:
            return cls(data[0], data[1])
        raise TypeError("a step is {'src': space, 'dst': space or null}")


class Move(NamedTuple):
    """One whole turn: two steps (one character twice or two characters once each), or one step when
    that step takes the player's last character off the board.

    >>> Move.of((5, 6), (6, 7)).steps
    (Step(src=5, dst=6), Step(src=6, dst=7))
    >>> Move.of((5, None)).to_json()
    {'steps': [{'src': 5, 'dst': None}]}
    """

    first: Step
    second: Step | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in order (one or two)."""
        return (self.first,) if self.second is None else (self.first, self.second)

    @classmethod
    def of(cls, *steps: Any) -> Move:
        """A Move from one or two steps given as Steps or (src, dst) pairs."""
        if not 1 <= len(steps) <= 2:
            raise TypeError("a move has one or two steps")
        made = [s if isinstance(s, Step) else Step(*s) for s in steps]
        return cls(made[0], made[1] if len(made) == 2 else None)

    def to_json(self) -> dict[str, Any]:
        return {"steps": [s.to_json() for s in self.steps]}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
            raise TypeError("a move is {'steps': [step, step?]}")
        steps = data["steps"]
        if not 1 <= len(steps) <= 2:
            raise TypeError("a move has one or two steps")
        return cls.of(*[Step.from_json(s) for s in steps])


class Event(NamedTuple):
    """Something that happened. `turn` is the 0-based index of the move that caused it (None for what
    happened at set-up, before the first move); `season` is "summer", "winter" or "over"; `step` is
    0 or 1 for the consequences of a step, else None.

    kinds (other fields None unless listed):
    - ``take``: `seat` took the `tile` on `space` (the character moved off it);
    - ``spend_weapon``: `seat` spent a weapon to enter the mammoth `tile` on `space`;
    - ``supply_pack``: `seat` put a supply pack on the camp `space`;
    - ``leave``: a character of `seat` left the board from `space`;
    - ``season_end``: the season ended; `detail` "no_characters", "unreachable" or "stall";
    - ``remove``: the leftover `tile` on `space` was removed from the game;
    - ``place``: winter set-up put a character of `seat` on the winter camp `space`;
    - ``winter_start``: `seat` starts winter; `detail` "mammoth" (took the most valuable summer
      mammoth), "after_last" or "seat0" (nobody did: the `winter_start` option);
    - ``game_end``: winter ended, the game is over.
    """

    turn: int | None
    season: str
    step: int | None
    kind: str
    seat: int | None = None
    space: int | None = None
    tile: str | None = None
    detail: str | None = None


class Collection(NamedTuple):
    """What a player has taken and holds. Mammoths are their values, ascending; `weapons` are held
    (taken and not spent); `supply_packs` are in hand."""

    berries: int
    tubers: int
    herbs: int
    jug: int
    necklace: int
    pelt: int
    skull: int
    mammoths: tuple[int, ...]
    weapons: int
    weapons_spent: int
    supply_packs: int

    def to_json(self) -> dict[str, Any]:
        d = self._asdict()
        d["mammoths"] = list(self.mammoths)
        return d
