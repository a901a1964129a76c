"""Fixtures of the container tests: a reachable daemon (else every test skips, saying why), the image
built once per session from the working tree, and containers/volumes/networks each test removes.

The image is tagged hunters-engine:ci (HUNTERS_CI_IMAGE), its build stage hunters-engine:ci-build; both are kept so
that the next run reuses their layers. When the Dockerfile's base cannot be pulled, .ci/standin-base.sh
imports a local stand-in under its tag; the run's summary says which base was used."""

from __future__ import annotations

import os
import re
import subprocess
import time

import pytest

from .dockerctl import ROOT, Container, daemon_problem, docker, unique

IMAGE = os.environ.get("HUNTERS_CI_IMAGE", "hunters-engine:ci")
STANDIN_LABEL = "org.hunters.base-standin"
REPORT: list[str] = []


def base_image() -> str:
    """The BASE_IMAGE default of the Dockerfile."""
    with open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8") as fh:
        match = re.search(r"^ARG BASE_IMAGE=(\S+)", fh.read(), re.M)
    assert match, "Dockerfile: no ARG BASE_IMAGE=..."
    return match.group(1)


def image_id(tag: str) -> str | None:
    return docker("image", "inspect", "--format", "{{.Id}}", tag, check=False) or None


@pytest.fixture(scope="session")
def daemon() -> None:
    problem = daemon_problem()
    if problem:
        REPORT.append(f"container tests SKIPPED: {problem}")
        pytest.skip(f"container tests need a docker daemon: {problem}")


@pytest.fixture(scope="session")
def image(daemon: None) -> str:
    """hunters-engine:ci built from this tree (the legacy builder: BuildKit is not assumed)."""
    base = base_image()
    t0 = time.monotonic()
    out = subprocess.run(
        [os.path.join(ROOT, ".ci", "standin-base.sh"), base], capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, f"cannot provide the base image {base}:\n{out.stdout}{out.stderr}"
    t1 = time.monotonic()
    # The build stage is tagged too (IMAGE-build): it is the next run's cache. The images the previous
    # run tagged are removed once replaced, so that runs do not pile up (nothing else is removed).
    build_stage = f"{IMAGE}-build"
    before = {tag: image_id(tag) for tag in (build_stage, IMAGE)}
    env = {"DOCKER_BUILDKIT": "0"}
    docker("build", "-q", "--target", "build", "-t", build_stage, ROOT, env=env, timeout=1800)
    docker("build", "-q", "-t", IMAGE, ROOT, env=env, timeout=1800)
    t2 = time.monotonic()
    for tag, old in before.items():
        if old and old != image_id(tag):
            docker("rmi", old, check=False)
    labels = docker("image", "inspect", IMAGE, "--format", "{{json .Config.Labels}}")
    standin = STANDIN_LABEL in labels
    size_mb = int(docker("image", "inspect", IMAGE, "--format", "{{.Size}}")) / 1e6
    base_mb = int(docker("image", "inspect", base, "--format", "{{.Size}}")) / 1e6
    REPORT.append(
        f"base image {base}: "
        + (
            "a LOCAL STAND-IN (debootstrapped Debian bookworm, .ci/standin-base.sh), not the registry's image"
            if standin
            else "from its registry"
        )
        + f"; provided in {t1 - t0:.1f} s"
    )
    REPORT.append(
        f"image {IMAGE}: built in {t2 - t1:.1f} s, {size_mb:.0f} MB ({size_mb - base_mb:.0f} MB above the base)"
    )
    return IMAGE


class Resources:
    """Containers, volumes and networks a test creates; all removed at its end."""

    def __init__(self, image: str):
        self.image = image
        self.containers: list[Container] = []
        self.volumes: list[str] = []
        self.networks: list[str] = []

    def container(self, *args: str, command: tuple[str, ...] = (), image: str | None = None) -> Container:
        c = Container(unique("hunters-ci"), image or self.image, list(args), list(command))
        self.containers.append(c)
        return c

    def volume(self) -> str:
        name = docker("volume", "create", unique("hunters-ci-data"))
        self.volumes.append(name)
        return name

    def network(self, *args: str) -> str:
        name = unique("hunters-ci-net")
        docker("network", "create", *args, name)
        self.networks.append(name)
        return name

    def cleanup(self) -> None:
        for c in self.containers:
            c.remove()
        for v in self.volumes:
            docker("volume", "rm", "-f", v, check=False)
        for n in self.networks:
            docker("network", "rm", n, check=False)


@pytest.fixture
def res(image: str):
    r = Resources(image)
    yield r
    r.cleanup()


def pytest_terminal_summary(terminalreporter) -> None:
    for line in REPORT:
        terminalreporter.write_line(line)
