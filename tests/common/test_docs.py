"""Every ```python example in README.md and docs/*.md runs (so none can rot): each block is executed
in a fresh namespace, in order within its file (a block may use what an earlier block of the same
file defined). Blocks that talk to the service run against a real server started here on a free
loopback port: the documented address ``localhost:50051`` is replaced by the test server's."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
DOC_ADDRESS = "localhost:50051"


def blocks(path):
    """(line number, source) of every python block of a Markdown file."""
    text = path.read_text("utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


@pytest.fixture(scope="module")
def server_address(tmp_path_factory):
    from hunters.service import ServerConfig, create_server

    running = create_server(ServerConfig(address="127.0.0.1:0", db=str(tmp_path_factory.mktemp("docs") / "m.db")))
    yield f"127.0.0.1:{running.port}"
    running.stop(0)


def test_the_docs_have_examples():
    assert sum(len(blocks(p)) for p in DOCS) >= 4


@pytest.fixture
def registry_restored():
    """Examples may register games (docs/adding-a-game.md does): undo it afterwards."""
    import hunters

    before = set(hunters.games.ids())
    yield
    for game_id in set(hunters.games.ids()) - before:
        hunters.games.unregister(game_id)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_python_examples_run(path, request, registry_restored):
    namespace: dict = {"__name__": f"docs_{path.stem}"}
    for line, source in blocks(path):
        if DOC_ADDRESS in source:
            source = source.replace(DOC_ADDRESS, request.getfixturevalue("server_address"))
        code = compile(source, f"{path.name}:{line}", "exec")
        exec(code, namespace)
