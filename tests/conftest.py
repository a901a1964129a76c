"""Shared pytest options: `--slow` adds the long cross-checks (marked `slow`), `--browser` the viewer's
tests in headless Chromium (marked `browser`, tests/web/), `--container` the tests that build and run
the Docker image (marked `container`, tests/container/, run by `.ci/container`); without them those
tests are deselected (not collected as skips), so the plain run stays fast and prints no rows of `s`."""

OPTIONAL = {
    "slow": "also run the long cross-checks",
    "browser": "also run the viewer's tests in headless Chromium (tests/web, marked browser)",
    "container": "also build and test the Docker image (needs dockerd)",
}


def pytest_addoption(parser):
    for marker, help_text in OPTIONAL.items():
        parser.addoption(f"--{marker}", action="store_true", default=False, help=help_text)


def pytest_collection_modifyitems(config, items):
    skipped = [m for m in OPTIONAL if not config.getoption(f"--{m}")]
    keep, dropped = [], []
    for item in items:
        (dropped if any(item.get_closest_marker(m) for m in skipped) else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
