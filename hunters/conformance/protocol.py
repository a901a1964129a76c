"""The conformance protocol (docs/conformance.md#protocol): JSON lines on the engine's stdin and
stdout, one request per line, one answer per line, in order. Both sides live here: `Engine`, the
runner's handle on a child process (every request bounded by a timeout, a crash or a hang reported
as an `EngineFault`, never a hang of the runner), and `serve`, the loop an engine written in
Python runs (our adapter is one).

Requests carry ``op`` and an ``id`` the answer repeats; an answer is ``{"id", "ok": true, ...}``
or ``{"id", "ok": false, "error": "..."}``:

- ``hello`` -> ``engine`` (a name), ``protocol`` (1), ``games`` (the game ids it plays);
- ``new`` {``record``} -> the game of a record (configuration, explicit piles or layouts, moves so
  far) becomes the current game; answers ``player``, ``over``, ``scores`` and ``events`` (every
  event so far, the set-up's included), and once the game is over ``winners`` (optional: the
  runner compares them when given);
- ``legal`` -> ``moves``: every legal move of the current position (any order; the record's JSON
  form of a move);
- ``play`` {``move``} -> ``events`` (what the move caused, the game's event JSON, in order),
  ``player``, ``over``, ``scores`` (and ``winners`` once over);
- ``perft`` {``depth``, ``chance``, ``divide``} -> ``count``, or with divide ``divide``: a list of
  {``move`` or ``outcome``, ``count``};
- ``quit`` -> the engine answers and exits."""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from typing import IO, Any

__all__ = ["PROTOCOL", "Engine", "EngineFault", "serve"]

PROTOCOL = 1


class EngineFault(Exception):
    """The engine did not answer as the protocol says: `kind` is ``timeout``, ``crash``,
    ``garbled`` (not a JSON answer to the request) or ``refused`` (ok false)."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class Engine:
    """A child process speaking the protocol. `request(op, **fields)` returns the answer's fields,
    or raises EngineFault; after a timeout or a crash the process is killed and every later
    request raises the same fault."""

    def __init__(self, command: str | list[str], timeout: float = 10.0, cwd: str | None = None):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (the engine's whole life; closed by close())
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                cwd=cwd,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineFault("crash", f"cannot start {self.command[0]!r}: {exc.strerror or exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._next = 0
        self.fault: EngineFault | None = None

    def _read(self) -> None:
        stdout = self._proc.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line)
        self._lines.put(None)

    def stderr_tail(self, chars: int = 600) -> str:
        if self._stderr.closed:
            return ""
        self._stderr.seek(0)
        text = self._stderr.read().decode(errors="replace")
        return text[-chars:].strip()

    def _fail(self, kind: str, message: str) -> EngineFault:
        self.fault = EngineFault(kind, message)
        self.close(kill=True)
        return self.fault

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        if self.fault is not None:
            raise self.fault
        self._next += 1
        rid = self._next
        line = json.dumps({"id": rid, "op": op, **fields}, separators=(",", ":"))
        try:
            stdin = self._proc.stdin
            assert stdin is not None
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed(op) from None
        try:
            got = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail("timeout", f"no answer to {op!r} within {self.timeout:g} s") from None
        if got is None:
            raise self._crashed(op)
        try:
            answer = json.loads(got)
        except ValueError:
            raise self._fail("garbled", f"the answer to {op!r} is not JSON: {got[:200]!r}") from None
        if not isinstance(answer, dict) or answer.get("id") != rid:
            raise self._fail("garbled", f"the answer to {op!r} is not the answer to request {rid}: {got[:200]!r}")
        if not answer.get("ok"):
            raise EngineFault("refused", f"{op!r} refused: {answer.get('error', 'no error given')}")
        return answer

    def _crashed(self, op: str) -> EngineFault:
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail()
        said = f"; its stderr ends: {tail}" if tail else ""
        return self._fail("crash", f"the engine exited (code {code}) at {op!r}{said}")

    def close(self, kill: bool = False) -> None:
        proc = self._proc
        if proc.poll() is None and not kill:
            try:
                stdin = proc.stdin
                assert stdin is not None
                stdin.write(json.dumps({"id": 0, "op": "quit"}) + "\n")
                stdin.flush()
                proc.wait(timeout=min(self.timeout, 2.0))
            except (OSError, subprocess.TimeoutExpired):
                pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        self._stderr.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Handler = Callable[[dict[str, Any]], dict[str, Any]]


def serve(handle: Handler, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> int:
    """Answer requests read from `stdin` with `handle(request) -> answer fields` until ``quit`` or
    the end of input; an exception of the handler is an ``ok: false`` answer naming it."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            rid = request.get("id")
        except (ValueError, AttributeError):
            stdout.write(json.dumps({"id": None, "ok": False, "error": "not a JSON object"}) + "\n")
            stdout.flush()
            continue
        if request.get("op") == "quit":
            stdout.write(json.dumps({"id": rid, "ok": True}) + "\n")
            stdout.flush()
            return 0
        try:
            answer = {"id": rid, "ok": True, **handle(request)}
        except Exception as exc:  # the protocol's refusal: the runner reports it
            answer = {"id": rid, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0
