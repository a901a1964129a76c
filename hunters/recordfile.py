"""A match record read from a JSON file, for the commands that take one (`hunters replay`,
`render`, `review`): a record, or a game of `hunters arena --records` (the record with its bots
and result); the file's faults turned into one line a person can act on."""

from __future__ import annotations

import json
from typing import Any

import hunters

__all__ = ["BadRecordFile", "read_record"]


class BadRecordFile(Exception):
    """A record file that cannot be used: the one line to print."""


def read_record(path: str) -> dict[str, Any]:
    """The JSON record of a registered game in `path` (BadRecordFile saying why not)."""
    try:
        with open(path, encoding="utf-8") as fh:
            record = json.load(fh)
    except OSError as exc:
        raise BadRecordFile(exc.strerror or str(exc)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRecordFile(f"not JSON ({exc})") from None
    if isinstance(record, dict) and "game" not in record and isinstance(record.get("record"), dict):
        record = record["record"]  # an arena game: {"record": ..., "bots": ..., "scores": ...}
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise BadRecordFile("invalid record: no game id")
    if record["game"] not in hunters.games:
        raise BadRecordFile(f"invalid record: unknown game {record['game']!r}")
    return record
