"""Shared pytest options: `--slow` adds the long cross-checks (marked `slow`); without it they are
deselected (not collected as skips), so the run prints no rows of `s`."""


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False, help="also run the long cross-checks")
    parser.addoption(
        "--browser",
        action="store_true",
        default=False,
        help="also run the viewer's tests in headless Chromium (tests/web, marked browser)",
    )


def pytest_collection_modifyitems(config, items):
    skipped = {m for m in ("slow", "browser") if not config.getoption(f"--{m}")}
    if not skipped:
        return
    keep, slow = [], []
    for item in items:
        (slow if skipped & set(item.keywords) else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep
