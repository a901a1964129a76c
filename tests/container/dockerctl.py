"""A thin wrapper over the `docker` command line for the container tests (no Python Docker SDK: the CLI
is what operators use, and what docs/deployment.md documents)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class DockerError(RuntimeError):
    pass


def docker(*args: str, check: bool = True, timeout: float = 600, env: dict[str, str] | None = None) -> str:
    """Run `docker ARGS`; its stdout. A non-zero exit raises DockerError with stderr."""
    proc = subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )
    if check and proc.returncode != 0:
        raise DockerError(f"docker {' '.join(args)}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout.strip()


def daemon_problem() -> str | None:
    """Why no daemon can be used here, or None when `docker info` answers."""
    if shutil.which("docker") is None:
        return "no docker command on PATH"
    proc = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True)
    if proc.returncode != 0:
        return "no docker daemon answers: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    return None


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@dataclass
class Container:
    """A container started by a test; `remove()` (also at teardown) deletes it and nothing else."""

    name: str
    image: str
    args: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    started_at: float = 0.0

    def start(self) -> Container:
        self.started_at = time.monotonic()
        docker("run", "-d", "--name", self.name, *self.args, self.image, *self.command)
        return self

    def inspect(self) -> dict:
        return json.loads(docker("inspect", self.name))[0]

    def health(self) -> str:
        return self.inspect()["State"].get("Health", {}).get("Status", "none")

    def wait_healthy(self, timeout: float = 60) -> float:
        """Seconds from `docker run` (or `since`) to `healthy`; fails on `unhealthy`, an exit or a timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.inspect()["State"]
            status = state.get("Health", {}).get("Status")
            if status == "healthy":
                return time.monotonic() - self.started_at
            if status == "unhealthy" or not state["Running"]:
                raise AssertionError(f"{self.name}: {status}, running={state['Running']}\n{self.logs()}")
            time.sleep(0.25)
        raise AssertionError(f"{self.name}: not healthy after {timeout} s\n{self.logs()}")

    def restart(self) -> None:
        self.started_at = time.monotonic()
        docker("restart", "-t", "20", self.name)

    def port(self, inner: int = 50051) -> int:
        """The loopback port `inner` is published on."""
        out = docker("port", self.name, f"{inner}/tcp").splitlines()[0]
        return int(out.rsplit(":", 1)[1])

    def exec(self, *cmd: str, check: bool = True) -> str:
        return docker("exec", self.name, *cmd, check=check)

    def exec_rc(self, *cmd: str) -> int:
        return subprocess.run(["docker", "exec", self.name, *cmd], capture_output=True).returncode

    def logs(self) -> str:
        proc = subprocess.run(["docker", "logs", self.name], capture_output=True, text=True)
        return proc.stdout + proc.stderr

    def wait_exit(self, timeout: float = 60) -> int:
        return int(docker("wait", self.name, timeout=timeout))

    def remove(self) -> None:
        docker("rm", "-f", "-v", self.name, check=False)
