"""Shared pytest options: `--slow` adds the long cross-checks (marked `slow`), `--container` the tests
that build and run the Docker image (marked `container`, tests/container/, run by `.ci/container`);
without them they are deselected (not collected as skips), so the plain run stays fast and prints no
rows of `s`."""


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="also run the long cross-checks")
    parser.addoption(
        "--container", action="store_true", default=False, help="also build and test the Docker image (needs dockerd)"
    )


def pytest_collection_modifyitems(config, items):
    skipped = [m for m in ("slow", "container") if not config.getoption(f"--{m}")]
    keep, dropped = [], []
    for item in items:
        (dropped if any(item.get_closest_marker(m) for m in skipped) else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
