"""The published names (docs/deployment.md#names) agree everywhere: the package files of each
registry, the protos' go_package, every Go import, the docs' install lines, imports and tarball names,
and the deployment files' image. A name left behind, or a self-reference naming the unrelated `hunters`
project of PyPI, fails here."""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SELF = Path(__file__).resolve().relative_to(ROOT).as_posix()
PYPI = "hunters-engine"
NPM = "hunters-engine-client"
GO = "github.com/hunters-engine/hunters-engine/clients/go"
REPO = "https://github.com/hunters-engine/hunters-engine"
IMAGE = "hunters-engine"
OLD = ("@hunters/client", "hunters-client-", "github.com/hunters/hunters")


def _pep503(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _text_files() -> dict[str, str]:
    """Tracked text files (no generated code, no lock or binary files, not this one, which names the old
    names) -> their text."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    texts = {}
    for name in out.splitlines():
        path = ROOT / name
        skipped = name == SELF or "/gen/" in name or name.endswith((".binpb", ".png", ".json", ".jsonl"))
        if skipped or not path.is_file():
            continue
        try:
            texts[name] = path.read_text()
        except UnicodeDecodeError:
            continue
    return texts


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return _text_files()


def test_the_registries_package_files_carry_the_names():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == PYPI
    assert project["scripts"] == {"hunters": "hunters.cli:main"}  # the command keeps its name
    assert project["urls"]["Source"] == REPO
    package = json.loads((ROOT / "clients/typescript/package.json").read_text())
    assert package["name"] == NPM and "private" not in package
    assert package["repository"]["url"] == f"git+{REPO}.git"
    lock = json.loads((ROOT / "clients/typescript/package-lock.json").read_text())
    assert lock["name"] == lock["packages"][""]["name"] == NPM
    assert (ROOT / "clients/go/go.mod").read_text().splitlines()[0] == f"module {GO}"
    assert f'org.opencontainers.image.source="{REPO}"' in (ROOT / "Dockerfile").read_text()


def test_the_distribution_refers_to_itself_by_its_own_name():
    """`"hunters[rl]"` in an extra would install the other project of PyPI: every requirement of the
    extras that is this distribution names it as published, with an extra it has."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    own = 0
    for requirement in [r for reqs in extras.values() for r in reqs] + project["dependencies"]:
        name, _, rest = re.match(r"([A-Za-z0-9._-]+)(\[([^\]]*)\])?", requirement).group(1, 2, 3)
        assert _pep503(name) != "hunters", requirement
        if _pep503(name) == PYPI:
            own += 1
            assert set(rest.split(",")) <= set(extras), requirement
    assert own >= 5


def test_every_go_package_and_go_import_names_the_module(texts):
    protos = sorted((ROOT / "proto/hunters/v1").glob("*.proto"))
    assert protos
    for proto in protos:
        assert f'option go_package = "{GO}/gen/hunters/v1;huntersv1";' in proto.read_text(), proto.name
    assert f'pkg="{GO}/gen/hunters/v1;huntersv1"' in texts["clients/go/scripts/generate.sh"]
    imports = 0
    for name, text in texts.items():
        for path in re.findall(r'"(github\.com/[\w.-]+/[\w.-]+/clients/go\b[^"]*)"', text):
            imports += 1
            assert path.startswith(GO), f"{name}: {path}"
    assert imports > 30


def test_no_file_keeps_an_old_name(texts):
    for name, text in texts.items():
        for old in OLD:
            assert old not in text, f"{name} still says {old}"


def test_every_install_line_and_extra_names_the_distribution(texts):
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    seen = 0
    for name, text in texts.items():
        for dist, extra in re.findall(r"(?<![\w./])(hunters(?:[-_.][a-z]+)*)\[([a-z,]+)\]", text):
            seen += 1
            assert dist == PYPI, f"{name}: {dist}[{extra}]"
            assert set(extra.split(",")) <= extras, f"{name}: no extra {extra}"
        for dist in re.findall(r"pip install (?:-U |--upgrade )?['\"]?(hunters[\w.-]*)", text):
            assert dist == PYPI, f"{name}: pip install {dist}"
    assert seen > 20


def test_the_docs_import_and_install_the_npm_package_by_its_name(texts):
    version = json.loads((ROOT / "clients/typescript/package.json").read_text())["version"]
    imports = tarballs = 0
    for name, text in texts.items():
        for module in re.findall(r"""(?:from|import\() ?["']((?:@[\w-]+/)?hunters[\w-]*)[/"']""", text):
            imports += 1
            assert module == NPM, f"{name}: imports {module}"
        for tarball in re.findall(r"\bhunters[\w-]*-(?:\d+\.\d+\.\d+|\*)\.tgz", text):
            tarballs += 1
            assert tarball in (f"{NPM}-{version}.tgz", f"{NPM}-*.tgz"), f"{name}: {tarball}"
    assert imports > 5 and tarballs > 5


def test_the_deployment_files_name_the_image():
    images = []
    for path in (ROOT / "deploy").rglob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            images += [(path, m) for m in re.findall(r"'image': '([^']+)'", repr(doc))]
    ours = [(path, image) for path, image in images if "postgres" not in image and "prometheus" not in image]
    assert len(ours) >= 5, images
    for path, image in ours:
        repository = re.sub(r"^\$\{HUNTERS_IMAGE:-(.*)\}$", r"\1", image).rsplit(":", 1)[0]
        assert repository.rsplit("/", 1)[-1] == IMAGE, f"{path}: {image}"
    docs = (ROOT / "docs/deployment.md").read_text()
    assert f"docker build -t {IMAGE} ." in docs and f"docker build -t {IMAGE} ." in (ROOT / "Dockerfile").read_text()
