"""The client conformance scenario (clients/scenario/) run by the blocking and the asyncio Python
clients against a fresh server: each transcript must be the checked-in one, line for line.

Marked `clients` (run with --clients), as tests/bots/test_client_bots.py: `.ci/client-scenario` runs
the same scenario with all four clients against one server and diffs their transcripts."""

import asyncio
from pathlib import Path

import pytest

from hunters.service import ServerConfig, create_server

from .scenario import SCENARIO, run_scenario

pytestmark = pytest.mark.clients

EXPECTED = SCENARIO.parent / "expected.txt"


@pytest.mark.parametrize("use_aio", [False, True], ids=["blocking", "asyncio"])
def test_the_python_clients_print_the_expected_transcript(use_aio: bool, tmp_path: Path) -> None:
    config = ServerConfig(
        address="127.0.0.1:0", db=str(tmp_path / "matches.db"), review_iterations=20
    )  # as .ci/client-scenario
    server = create_server(config)
    lines: list[str] = []
    try:
        asyncio.run(asyncio.wait_for(run_scenario(f"127.0.0.1:{server.port}", use_aio, SCENARIO, lines.append), 120))
    finally:
        server.stop(0)
    expected = EXPECTED.read_text().splitlines()
    assert lines == expected
