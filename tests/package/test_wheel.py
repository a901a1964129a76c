"""The package as a user gets it: `python -m build` makes the sdist and, from it, the wheel; the wheel
goes into a new virtual environment of its own, whose `hunters serve` then serves and plays a whole
game of every game (tests/package/play_installed.py, run outside the source tree). A file missing
from the sdist or the package data (a .pyx, .pxd, JSON, web asset, proto) fails here.

Marked `wheel` (about 2 minutes: one compile of the core, one install): run with `--wheel`, as
.ci/run does. HUNTERS_WHEEL_PYTHON names the interpreter to build and install with (default: this
one), so another supported Python can be checked the same way."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.wheel


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tracked(*folders: str) -> list[str]:
    """Files git tracks under `folders` (the repository's own, not what a build left beside them)."""
    out = subprocess.run(["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(argv)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(venv bin folder, sdist path, wheel path, environment) of a new venv that built both."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("the wheel test needs the git checkout (it compares the sdist with the tracked files)")
    tmp = tmp_path_factory.mktemp("wheel")
    python = os.environ.get("HUNTERS_WHEEL_PYTHON", sys.executable)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    _run([python, "-m", "venv", str(tmp / "venv")], tmp, env, 120)
    bin_dir = tmp / "venv" / "bin"
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "build"], tmp, env, 600)
    source = tmp / "source"  # a copy of the tracked files only: what a clean clone holds
    for name in _tracked("."):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    _run([str(bin_dir / "python"), "-m", "build", "--outdir", str(tmp / "dist"), str(source)], tmp, env, 1200)
    (sdist,) = (tmp / "dist").glob("*.tar.gz")
    (wheel,) = (tmp / "dist").glob("*.whl")
    return bin_dir, sdist, wheel, env, tmp


def test_sdist_holds_every_source_file(built):
    _, sdist, _, _, _ = built
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    missing = [f for f in _tracked("hunters", "proto", "setup.py", "pyproject.toml", "README.md") if f not in names]
    assert not missing, f"the sdist lacks {missing}"
    assert not [n for n in names if n.endswith((".so", ".c", ".pyc")) or n.startswith("hunters/v1/")]


def test_wheel_holds_the_package_data(built):
    _, _, wheel, _, _ = built
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    expected = [f for f in _tracked("hunters") if not f.endswith(".py")]
    expected += [f"hunters/v1/{Path(p).name}" for p in _tracked("proto/hunters/v1") if p.endswith(".proto")]
    missing = [f for f in expected if f not in names]
    assert not missing, f"the wheel lacks {missing}"
    assert any(n.startswith("hunters/v1/matches_pb2") for n in names), "no generated gRPC code"
    cores = {n.split("/")[1] for n in names if re.fullmatch(r"hunters/\w+/_core\.[^/]*\.so", n)}
    assert {"carcassonne", "jaeger"} <= cores, f"compiled cores: {sorted(cores)}"
    assert not [n for n in names if n.startswith("hunters/_core/") and n.endswith(".so")], "hunters/_core/ is game-free"


def test_the_files_and_the_installed_metadata_name_the_distribution(built):
    """Published as `hunters-engine` (docs/deployment.md#names), imported and run as `hunters`; its extras
    refer to it by that name, never to `hunters`, which on PyPI is another project."""
    bin_dir, sdist, wheel, env, tmp = built
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert sdist.name == f"hunters_engine-{version}.tar.gz", sdist.name
    assert wheel.name.startswith(f"hunters_engine-{version}-"), wheel.name
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], tmp, env, 900)
    probe = (
        "import json; from importlib import metadata as m; d = m.distribution('hunters-engine'); "
        "print(json.dumps({'name': d.metadata['Name'], 'owner': m.packages_distributions()['hunters'], "
        "'eps': sorted(f'{e.group} {e.name} {e.value}' for e in d.entry_points), 'requires': d.requires}))"
    )
    found = json.loads(_run([str(bin_dir / "python"), "-I", "-c", probe], tmp, env, 60))
    assert found["name"] == "hunters-engine" and found["owner"] == ["hunters-engine"], found
    assert "console_scripts hunters hunters.cli:main" in found["eps"], found["eps"]
    games = {e.split()[1] for e in found["eps"] if e.startswith("hunters.games ")}
    assert games == {"carcassonne_hg", "jaeger_sammler"}, found["eps"]
    own = [r for r in found["requires"] if re.match(r"hunters\b", r)]
    assert own and all(r.startswith("hunters-engine[") for r in own), own


def test_installed_wheel_serves_and_plays_every_game(built):
    bin_dir, _, wheel, env, tmp = built
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], tmp, env, 900)
    work = tmp / "elsewhere"  # no source tree below or above: the installed package alone
    work.mkdir()
    port, http = _free_port(), _free_port()
    server = subprocess.Popen(
        [str(bin_dir / "hunters"), "serve", "--port", str(port), "--http", str(http), "--db", str(work / "m.db")],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            check = subprocess.run(
                [str(bin_dir / "python"), "-m", "hunters.service.healthcheck", "--address", f"127.0.0.1:{port}"],
                cwd=work,
                env=env,
                capture_output=True,
            )
            if check.returncode == 0:
                break
            assert server.poll() is None, f"hunters serve exited: {server.communicate()[0][-3000:]}"
            assert time.monotonic() < deadline, "hunters serve did not answer its health check in 60 s"
            time.sleep(0.5)
        shutil.copy(Path(__file__).with_name("play_installed.py"), work / "play_installed.py")
        out = _run([str(bin_dir / "python"), "play_installed.py", str(port), str(http)], work, env, 600)
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    games = [line for line in out.splitlines() if " over after " in line]
    assert len(games) >= 2 and "viewer: pages served" in out, out
    assert "Traceback" not in log, log[-3000:]


def test_installed_wheel_ships_the_examples(built):
    """The examples (hunters/examples) are in the wheel and, installed, list and copy themselves
    from outside any source tree: ``python -m hunters.examples [copy DIR]`` (running them needs the
    learning extra, tests/rl/test_example.py)."""
    bin_dir, _, wheel, env, tmp = built
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    shipped = _tracked("hunters/examples")
    assert shipped and not [f for f in shipped if f not in names], f"the wheel lacks {set(shipped) - names}"
    _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], tmp, env, 900)
    work = tmp / "examples-elsewhere"
    work.mkdir()
    listing = _run([str(bin_dir / "python"), "-m", "hunters.examples"], work, env, 120)
    modules = sorted(Path(f).stem for f in shipped if not Path(f).name.startswith("_"))
    assert sorted(re.findall(r"^hunters\.examples\.(\w+):", listing, re.M)) == modules, listing
    assert str(tmp / "venv") in listing  # the installed files, not a checkout's
    _run([str(bin_dir / "python"), "-m", "hunters.examples", "copy", "mine"], work, env, 120)
    assert sorted(p.stem for p in (work / "mine").iterdir()) == modules
