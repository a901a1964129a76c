"""deploy/compose/compose.yaml run for real: the stand-in game server beside the hunters sidecar plays a
match over the compose network once the sidecar is healthy. Skips where neither `docker compose` nor
`docker-compose` is installed (Debian: apt-get install docker-compose)."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid

import pytest

from .conftest import REPORT
from .dockerctl import ROOT

pytestmark = pytest.mark.container
COMPOSE_FILE = os.path.join(ROOT, "deploy", "compose", "compose.yaml")


def compose_command() -> list[str] | None:
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


def test_the_game_server_plays_through_the_sidecar_over_the_compose_network(image):
    command = compose_command()
    if command is None:
        REPORT.append("compose example SKIPPED: neither `docker compose` nor `docker-compose` is installed")
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    project = f"hunters-ci-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "HUNTERS_IMAGE": image, "HUNTERS_CREATE_TOKEN": uuid.uuid4().hex}
    base = [*command, "--no-ansi" if command == ["docker-compose"] else "--ansi=never", "-f", COMPOSE_FILE]
    base += ["-p", project]

    def compose(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*base, *args], env=env, capture_output=True, text=True, timeout=timeout)

    try:
        assert compose("config", "-q").returncode == 0
        run = compose("up", "--no-build", "--exit-code-from", "game-server")
        out = run.stdout + run.stderr
        assert run.returncode == 0, out
        assert "without the token, CreateMatch is refused (UNAUTHENTICATED)" in out, out
        assert "over after" in out, out
    finally:
        compose("down", "-v", "--remove-orphans")
    REPORT.append(f"compose example ({' '.join(command)}): the game server played a match through the sidecar")
