"""Moves: the structured vocabulary for people and protocols."""

from __future__ import annotations

from typing import Any, NamedTuple


class Occupant(NamedTuple):
    """A piece put on a zone of the tile being placed: `kind` is "meeple" or "hut"."""

    kind: str
    zone: int


class Move(NamedTuple):
    """One whole decision: place the tile at (x, y) turned `rotation` quarter turns clockwise,
    optionally take back an own meeple (`retake`, shaman tile only: a global zone id) and
    optionally occupy a zone of the tile (`occupant`)."""

    x: int
    y: int
    rotation: int
    occupant: Occupant | None = None
    retake: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "x": self.x,
            "y": self.y,
            "rotation": self.rotation,
            "occupant": None if self.occupant is None else {"kind": self.occupant.kind, "zone": self.occupant.zone},
            "retake": self.retake,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        occ = data.get("occupant")
        return cls(
            data["x"],
            data["y"],
            data["rotation"],
            None if occ is None else Occupant(occ["kind"], occ["zone"]),
            data.get("retake"),
        )


class ScoreEvent(NamedTuple):
    """Points scored: every seat in `seats` gains `points` for `reason` on `feature` (the canonical
    id of the feature: its smallest global zone id). `decision` is the index of the move that caused
    it; final-scoring events carry the number of moves of the game."""

    decision: int
    reason: str
    seats: tuple[int, ...]
    points: int
    feature: int
