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


MONITORING_FILE = os.path.join(ROOT, "deploy", "compose", "monitoring.yaml")


def test_prometheus_beside_the_sidecar_scrapes_the_moves_played(image):
    """compose.yaml with monitoring.yaml: Prometheus (Debian's package, built on the image) scrapes the
    sidecar's metrics, and PromQL counts the moves of the game server's match."""
    import json
    import re
    import socket
    import time
    import urllib.parse
    import urllib.request

    command = compose_command()
    if command is None:
        REPORT.append("compose monitoring SKIPPED: neither `docker compose` nor `docker-compose` is installed")
        pytest.skip("neither `docker compose` nor `docker-compose` is installed")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    project = f"hunters-ci-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "HUNTERS_IMAGE": image,
        "HUNTERS_CREATE_TOKEN": uuid.uuid4().hex,
        "HUNTERS_PROMETHEUS_PORT": str(port),
    }
    base = [*command, "--no-ansi" if command == ["docker-compose"] else "--ansi=never"]
    base += ["-f", COMPOSE_FILE, "-f", MONITORING_FILE, "-p", project]

    def compose(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*base, *args], env=env, capture_output=True, text=True, timeout=timeout)

    def query(promql: str) -> list:
        url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
        with urllib.request.urlopen(url, timeout=10) as reply:
            return json.loads(reply.read())["data"]["result"]

    try:
        built = compose("build", "prometheus", timeout=1800)
        assert built.returncode == 0, built.stdout + built.stderr
        up = compose("up", "-d", "--no-build")
        assert up.returncode == 0, up.stdout + up.stderr
        deadline = time.monotonic() + 300
        moves = None
        while moves is None and time.monotonic() < deadline:
            found = re.search(r"over after (\d+) moves", compose("logs", "game-server").stdout)
            moves = int(found.group(1)) if found else None
            time.sleep(1)
        assert moves, compose("logs").stdout[-3000:]
        counted = None
        while time.monotonic() < deadline:  # Prometheus scrapes every 15 s
            try:
                result = query('sum(hunters_moves_played_total{job="hunters"})')
            except OSError:
                result = []
            counted = float(result[0]["value"][1]) if result else None
            if counted == moves:
                break
            time.sleep(1)
        assert counted == moves, compose("logs", "prometheus").stdout[-3000:]
    finally:
        compose("down", "-v", "--remove-orphans")
        subprocess.run(["docker", "rmi", "-f", "hunters-prometheus:local"], capture_output=True, check=False)
    REPORT.append(f"compose monitoring: Prometheus counted the {moves} moves of the game server's match")
