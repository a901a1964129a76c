"""hunters.scale without Ray: units come back in unit order whatever order they finish in, an
abandoned run cancels what it had queued, local processes give the sequential result, and --ray
without the package is one line and exit 2."""

import json
import subprocess
import sys
import time

import pytest

from hunters import scale
from hunters.cli import main
from hunters.simulate import BLOCK, block_sizes, blocks_unit, merge_results


def _sleep_then(seconds, value):
    time.sleep(seconds)
    return value


def test_results_come_in_unit_order_not_finishing_order():
    units = [(0.3, 0), (0.0, 1), (0.2, 2), (0.0, 3), (0.1, 4)]
    with scale.Local(2) as pool:
        assert list(scale.ordered(pool, _sleep_then, units)) == [0, 1, 2, 3, 4]
    assert list(scale.ordered(scale.Inline(), _sleep_then, [(0, "a"), (0, "b")])) == ["a", "b"]


def test_closing_the_stream_cancels_the_units_not_started():
    with scale.Local(1) as pool:
        stream = scale.ordered(pool, _sleep_then, [(0.2, i) for i in range(50)], window=10)
        assert next(stream) == 0
        stream.close()
        assert pool.submitted == 10  # the window, not the whole run
        deadline = time.perf_counter() + 2
        while pool.unfinished():
            assert time.perf_counter() < deadline, "queued units were not cancelled"
            time.sleep(0.01)


def test_chunks_cover_every_index_once():
    assert scale.chunks(10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert scale.chunks(8, 4) == [(0, 4), (4, 4)]
    assert block_sizes(2 * BLOCK + 3) == [BLOCK, BLOCK, 3]


@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_block_units_sum_to_the_blocks_of_simulate_games(game):
    """Units of blocks give what SimulateGames's block loop gives: block b = random_games(256, seed + b)."""
    import hunters

    cls = hunters.games.get(game)
    total, seed = 3 * BLOCK + 17, 2**64 - 2  # the seed wraps around in the third block
    one_by_one = merge_results(
        2, [cls.random_games(n, 2, (seed + b) % 2**64) for b, n in enumerate(block_sizes(total))]
    )
    units = merge_results(2, [blocks_unit(game, 2, seed, total, 0, 3), blocks_unit(game, 2, seed, total, 3, 1)])
    assert units == one_by_one and units.games == total


@pytest.mark.parametrize("game", ["carcassonne_hg", "jaeger_sammler"])
def test_simulate_on_workers_equals_one_process(game, capsys):
    args = ["simulate", "--game", game, "--games", "120", "--seed", "3", "--json", "--quiet"]
    assert main(args) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*args, "--workers", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == alone
    assert alone["games"] == 120 and sum(alone["win_rates"]) >= 1


def test_ray_missing_is_one_line_and_exit_2():
    code = (
        "import sys; sys.modules['ray'] = None; from hunters.cli import main; "
        "sys.exit(main(['simulate', '--games', '5', '--quiet', '--ray', 'auto']))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "hunters simulate: error: --ray needs the Ray package: pip install 'hunters-engine[ray]'"
    ]
