"""Shared pytest options: `--slow` turns on the long cross-checks (marked `slow`)."""
import pytest


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="run the long cross-checks")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="long cross-check: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
