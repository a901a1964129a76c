"""The three files of a SQLite database in WAL mode (the database, its `-wal` log and its `-shm`
index), watched while the server has them open: each is expected to stay the file opened (device
and inode) and never to shrink (the server neither vacuums nor truncates its log). A file deleted,
replaced or truncated under the server means that what it commits may not survive a restart, so it
stops writing; a `-shm` index made immutable or truncated is mapped into memory, and the next
touch of it would kill the process with SIGBUS, so the database is not touched at all after that.

Each check is a few `stat`/`fstat` calls and one ioctl (a few microseconds)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import struct
from dataclasses import dataclass

from .store_base import StoreUnavailable

_GETFLAGS = 0x80086601  # FS_IOC_GETFLAGS (Linux)
_IMMUTABLE = 0x10  # FS_IMMUTABLE_FL (chattr +i)
_APPEND = 0x20  # FS_APPEND_FL (chattr +a)


class FileLost(StoreUnavailable):
    """A file of the database was deleted, replaced or truncated: nothing more is written (a restart
    opens what is there). `touchable`: the database may still be read (False when the `-shm` index
    is unusable: touching it would be SIGBUS). `rescue`: only the log was lost, and the log this
    server holds open can still be copied into the database file (a checkpoint)."""

    def __init__(self, message: str, touchable: bool = True, rescue: bool = False):
        super().__init__(message, "STORAGE_UNAVAILABLE")
        self.touchable = touchable
        self.rescue = rescue


@dataclass
class _Seen:
    device: int
    inode: int
    size: int


class FileGuard:
    """The identity and size of a database's files as opened, checked on demand."""

    def __init__(self, path: str):
        self.path = path
        self._seen: dict[str, _Seen] = {}
        self.read_only = False  # the database file had no write permission at the last check
        self._shm = -1  # a descriptor of the -shm file opened: its size and flags, cheaply
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                st = os.stat(path + suffix)
                self._seen[suffix] = _Seen(st.st_dev, st.st_ino, st.st_size)
        if "-shm" in self._seen:
            with contextlib.suppress(OSError):
                self._shm = os.open(path + "-shm", os.O_RDONLY | os.O_CLOEXEC)

    def close(self) -> None:
        if self._shm >= 0:
            os.close(self._shm)
            self._shm = -1

    def check_index(self) -> None:
        """Before any use of the database: its `-shm` index can be touched without SIGBUS (not
        immutable nor append-only, not shorter than seen); FileLost otherwise."""
        if self._shm < 0:
            return
        seen = self._seen["-shm"]
        try:
            size = os.fstat(self._shm).st_size
        except OSError:
            return
        if size < seen.size:
            raise FileLost(
                f"the database's index {self.path}-shm was truncated while serving (from {seen.size} to {size} "
                "bytes): nothing more is read or written; restart the server",
                touchable=False,
            )
        seen.size = size
        flags = _flags(self._shm)
        if flags & (_IMMUTABLE | _APPEND):
            kind = "immutable" if flags & _IMMUTABLE else "append-only"
            raise FileLost(
                f"the database's index {self.path}-shm was made {kind} while serving: nothing more is read or "
                f"written; make it writable again (chattr -i -a {self.path}-shm) and restart the server",
                touchable=False,
            )

    def check(self) -> None:
        """Every file is still the one opened and no shorter than seen (FileLost if not); the index
        checked as `check_index` does."""
        self.check_index()
        for suffix, seen in self._seen.items():
            name = self.path + suffix
            try:
                st = os.stat(name)
            except OSError:
                st = None
            what = {"": "database file", "-wal": "write-ahead log", "-shm": "index"}[suffix]
            if st is None or (st.st_dev, st.st_ino) != (seen.device, seen.inode):
                how = "deleted" if st is None else "replaced"
                raise FileLost(
                    f"the {what} {name} was {how} while serving: nothing more is written; restart the server",
                    rescue=suffix == "-wal",
                )
            if st.st_size < seen.size:
                raise FileLost(
                    f"the {what} {name} was truncated while serving (from {seen.size} to {st.st_size} bytes): "
                    "nothing more is written; restore the database from a backup (`hunters db check "
                    f"{self.path}` tells whether it is damaged)",
                )
            seen.size = st.st_size
            if not suffix:
                self.read_only = st.st_mode & 0o222 == 0


def _flags(fd: int) -> int:
    """The file's inode flags (chattr), 0 where the file system does not tell."""
    try:
        return int(struct.unpack("i", fcntl.ioctl(fd, _GETFLAGS, bytes(8))[:4])[0])
    except OSError:
        return 0


def unusable_index(path: str) -> str | None:
    """Why the `-shm` index of the database at `path` cannot be used (immutable, append-only or not
    writable), or None: checked before opening, since SQLite would map it and die of SIGBUS."""
    shm = path + "-shm"
    try:
        fd = os.open(shm, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None  # missing (SQLite makes it) or unreadable (SQLite says so)
    try:
        flags = _flags(fd)
    finally:
        os.close(fd)
    if flags & (_IMMUTABLE | _APPEND):
        kind = "immutable" if flags & _IMMUTABLE else "append-only"
        return f"the database's index {shm} is {kind}: make it writable (chattr -i -a {shm}) and start again"
    if not os.access(shm, os.W_OK):
        return f"the database's index {shm} is not writable: make it writable (or remove it) and start again"
    return None
