"""Opening the store `--db` names: SQLite (`store.py`) or PostgreSQL (`store_postgres.py`), both
implementations of `store_base.MatchStore`."""

from __future__ import annotations

from .store_base import MatchStore, is_postgres

__all__ = ["open_store"]


def open_store(db: str, sqlite_sync: str = "NORMAL", busy_timeout: float = 2.0, shared: bool = False) -> MatchStore:
    """The store for `--db`: a postgresql:// (or postgres://) URL selects PostgreSQL (always shared),
    anything else is a SQLite file (`shared`: written by the other workers of one server too). Call
    `await store.open()` before use."""
    if is_postgres(db):
        try:
            from .store_postgres import PostgresStore
        except ImportError as exc:
            raise ValueError(
                "a postgresql:// database needs psycopg 3 and psycopg_pool "
                f"(pip install 'hunters-engine[postgres]'): {exc}"
            ) from None

        return PostgresStore(db)
    from .store import SQLiteStore

    return SQLiteStore(db, synchronous=sqlite_sync, busy_timeout=busy_timeout, shared=shared)
