"""Benchmarks import the package the same way the tests do (from the repository root). Long runs
are marked `slow` and deselected unless `--slow` (as in tests/)."""

import contextlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def pytest_addoption(parser):
    with contextlib.suppress(ValueError):  # tests/conftest.py added it already (both directories collected)
        parser.addoption("--slow", action="store_true", default=False, help="also run the long benchmarks")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    keep, slow = [], []
    for item in items:
        (slow if "slow" in item.keywords and "bench" in str(item.fspath) else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep
