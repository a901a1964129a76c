"""The Docker image, built from this tree and run for real (`.ci/container`; `python -m pytest
--container tests/container`): health, both games through the Python client on a loopback-published
port, persistence across a restart and a new container, the non-root user, bind mounts, IPv4 and IPv6,
TLS with its health check, and a clean stop on SIGTERM. Without a docker daemon they skip, saying why."""

from __future__ import annotations

import os
import random
import subprocess
import time

import grpc
import pytest

from hunters.client import Client, ServiceError

from .conftest import REPORT
from .dockerctl import docker
from .play import PLAYERS, play_whole_game

pytestmark = pytest.mark.container
LOOPBACK = ("-p", "127.0.0.1::50051")
FAST_HEALTH = ("--health-interval", "1s")  # the image's own 10 s only in the first test


def test_plays_both_games_as_non_root_and_keeps_them_across_restarts(res):
    volume = res.volume()
    c = res.container(*LOOPBACK, "-v", f"{volume}:/data").start()
    REPORT.append(f"healthy {c.wait_healthy(90):.1f} s after `docker run` (the image's health-check timing)")
    # Non-root: the image's user, the server process's real and effective uid, the database's owner.
    assert c.inspect()["Config"]["User"] == "10001:10001"
    status = c.exec("cat", "/proc/1/status")
    assert "\nUid:\t10001\t10001\t10001\t10001" in status and "\nGid:\t10001\t10001\t10001\t10001" in status
    assert c.exec("stat", "-c", "%u:%g", "/data/hunters.db") == "10001:10001"

    with Client(f"127.0.0.1:{c.port()}") as client:
        assert sorted(g.game for g in client.list_games()) == sorted(PLAYERS)
        played = {game: play_whole_game(client, game, seed=13) for game in PLAYERS}

    def still_there() -> None:
        with Client(f"127.0.0.1:{c.port()}") as client:
            listed = {m.match_id: m for m in client.all_matches()}
            for game, (match_id, moves, scores) in played.items():
                m = client.get_match(match_id)
                assert (m.game, m.version, list(m.state.scores)) == (game, moves, scores)
                assert listed[match_id].version == moves

    c.restart()
    c.wait_healthy(60)
    still_there()
    # A new container on the same named volume (an upgrade, a rescheduled pod) finds them too.
    c.remove()
    c = res.container(*LOOPBACK, *FAST_HEALTH, "-v", f"{volume}:/data").start()
    c.wait_healthy(60)
    still_there()


def test_sigterm_stops_it_cleanly_within_the_grace_period(res):
    c = res.container(*LOOPBACK, *FAST_HEALTH).start()
    c.wait_healthy(60)
    with Client(f"127.0.0.1:{c.port()}") as client:
        m = client.create_match("carcassonne_hg", players=2, seed=1)
        watch = client.watch(m.match_id)  # a stream in flight while the server stops
        assert next(watch).version == 0
        t0 = time.monotonic()
        docker("stop", "-t", "30", c.name)  # SIGTERM, SIGKILL only after 30 s
        stopped = time.monotonic() - t0
        with pytest.raises(ServiceError):
            next(watch)
    state = c.inspect()["State"]
    assert state["ExitCode"] == 0 and not state["OOMKilled"], c.logs()
    assert stopped < 5 + 5, f"took {stopped:.1f} s: the 5 s grace did not bound the stop"  # grace + margin
    logs = c.logs()
    assert '"shutting down"' in logs and "SIGTERM" in logs and "Traceback" not in logs, logs
    REPORT.append(f"SIGTERM with an open WatchMatch stream: exit 0 after {stopped:.1f} s")


def test_a_bind_mount_owned_by_uid_10001_holds_the_database(res, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to give the bind-mounted directory to uid 10001")
    data = tmp_path / "data"
    data.mkdir()
    os.chown(data, 10001, 10001)
    # --read-only: the server writes nothing outside /data (as with readOnlyRootFilesystem in Kubernetes)
    c = res.container(*LOOPBACK, *FAST_HEALTH, "--read-only", "-v", f"{data}:/data").start()
    c.wait_healthy(60)
    with Client(f"127.0.0.1:{c.port()}") as client:
        match_id, _, _ = play_whole_game(client, "jaeger_sammler", seed=2)
    docker("stop", c.name)
    db = data / "hunters.db"
    assert db.exists() and (db.stat().st_uid, db.stat().st_gid) == (10001, 10001)
    # The database on the host holds the match (read with the host's sqlite3, no server).
    import sqlite3

    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        assert any(match_id in str(row) for t in tables for row in conn.execute(f"SELECT * FROM {t}"))
    # A directory uid 10001 cannot write: one clear line and exit status 2, not a crash loop of tracebacks.
    root_owned = tmp_path / "root-owned"
    root_owned.mkdir(mode=0o755)
    bad = res.container("-v", f"{root_owned}:/data").start()
    assert bad.wait_exit(60) == 2
    logs = bad.logs()
    expected = "cannot use the database /data/hunters.db: /data is not writable by uid 10001"
    assert logs.strip() == f"hunters serve: error: {expected}", logs


def test_it_listens_on_ipv4_and_ipv6(res):
    net = res.network("--ipv6", "--subnet", f"fd00:4813:{random.randrange(1 << 16):x}::/64")  # ULA, unlikely taken
    c = res.container("--network", net, *FAST_HEALTH).start()
    c.wait_healthy(60)
    addresses = c.inspect()["NetworkSettings"]["Networks"][net]
    v4, v6 = addresses["IPAddress"], addresses["GlobalIPv6Address"]
    assert v4 and v6, addresses
    # From another container on the network, the health check over each family.
    for target in (f"{v4}:50051", f"[{v6}]:50051"):
        probe = subprocess.run(
            ["docker", "run", "--rm", "--network", net, "--entrypoint", "python", res.image,
             "-m", "hunters.service.healthcheck", "--address", target],
            capture_output=True, text=True,
        )  # fmt: skip
        assert probe.returncode == 0, f"{target}: {probe.stderr}"
    # One dual-stack socket: an IPv6 listener on 50051 (0xC383), no separate IPv4 one.
    assert ":C383 " in c.exec("cat", "/proc/net/tcp6")


def _openssl(*args: str, cwd) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


def test_tls_mode_and_its_health_check(res, tmp_path):
    """A CA-signed certificate for hunters.internal (and 127.0.0.1, for the published port): the health
    check inside needs HUNTERS_TLS_CA and HUNTERS_TLS_SERVER_NAME to pass, and passes."""
    tls = tmp_path / "tls"
    tls.mkdir()
    (tls / "san.ext").write_text("subjectAltName=DNS:hunters.internal,IP:127.0.0.1\n")
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "2", "-subj", "/CN=hunters-ci-ca", cwd=tls)  # fmt: skip
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr",
             "-subj", "/CN=hunters.internal", cwd=tls)  # fmt: skip
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.pem", "-days", "2", "-extfile", "san.ext", cwd=tls)  # fmt: skip
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "other.key", "-out", "other-ca.pem",
             "-days", "2", "-subj", "/CN=another-ca", cwd=tls)  # fmt: skip
    for name in ("ca.pem", "other-ca.pem", "server.pem", "server.key"):
        os.chmod(tls / name, 0o644 if name != "server.key" else 0o600)
        if os.geteuid() == 0:
            os.chown(tls / name, 10001, 10001)
    if os.geteuid() != 0:
        os.chmod(tls / "server.key", 0o644)
    token = "ci-create-token"
    env = {
        "HUNTERS_TLS_CERT": "/tls/server.pem",
        "HUNTERS_TLS_KEY": "/tls/server.key",
        "HUNTERS_TLS_CA": "/tls/ca.pem",
        "HUNTERS_TLS_SERVER_NAME": "hunters.internal",
        "HUNTERS_CREATE_TOKEN": token,
    }
    env_args = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
    c = res.container(*LOOPBACK, *FAST_HEALTH, "-v", f"{tls}:/tls:ro", *env_args).start()
    c.wait_healthy(60)
    assert '"tls": true' in c.logs()
    check = ("python", "-m", "hunters.service.healthcheck")
    # The image's health check command as it runs (the settings from the environment) passes ...
    assert c.exec_rc(*c.inspect()["Config"]["Healthcheck"]["Test"][1:]) == 0
    # ... and really verifies: plaintext, a wrong name, an unknown CA each fail.
    assert c.exec_rc(*check, "--tls-ca", "") == 1
    assert c.exec_rc("env", "-u", "HUNTERS_TLS_SERVER_NAME", *check) == 1
    assert c.exec_rc(*check, "--tls-ca", "/tls/other-ca.pem") == 1

    port = c.port()
    credentials = grpc.ssl_channel_credentials(root_certificates=(tls / "ca.pem").read_bytes())
    with Client(f"127.0.0.1:{port}", credentials=credentials, timeout=10) as client:
        with pytest.raises(ServiceError) as refused:
            client.create_match("carcassonne_hg", players=2, seed=4)
        assert refused.value.code == grpc.StatusCode.UNAUTHENTICATED
        play_whole_game(client, "carcassonne_hg", seed=4, token=token)
    with Client(f"127.0.0.1:{port}", timeout=5) as plain, pytest.raises(ServiceError):
        plain.list_games()
