"""Shared pytest options: `--slow` adds the long cross-checks (marked `slow`), `--browser` the viewer's
tests in headless Chromium (marked `browser`, tests/web/), `--container` the tests that build and run
the Docker image (marked `container`, tests/container/, run by `.ci/container`), `--clients` the
TypeScript and Go clients' bots in the arena (marked `clients`, tests/bots/test_client_bots.py: they need
the clients built, so `.ci/run` runs them at its end) and the Python clients' run of the client scenario
(tests/clients), `--ray` the runs on a local Ray cluster (marked
`ray`, tests/scale/: they need hunters-engine[ray]); without them those tests are deselected (not
collected as skips), so the plain run stays fast and prints no rows of `s`. `--postgres` also runs the
service tests against PostgreSQL (tests/service/conftest.py parametrizes their servers by store) and
the replica tests (marked `postgres`). `--prometheus` the test where Debian's Prometheus scrapes the
server (marked `prometheus`, tests/service/test_metrics.py). `--wheel` builds the sdist and wheel and plays every game
from the wheel installed alone (marked `wheel`, tests/package/)."""

OPTIONAL = {
    "slow": "also run the long cross-checks",
    "browser": "also run the viewer's tests in headless Chromium (tests/web, marked browser)",
    "container": "also build and test the Docker image (needs dockerd)",
    "clients": "also run the TypeScript and Go clients' bots in the arena (needs the clients built) and the "
    "client scenario of the Python clients (tests/clients)",
    "ray": "also run simulations, arenas and SimulateGames on a local Ray cluster "
    "(tests/scale, needs hunters-engine[ray])",
    "wheel": "also build the sdist and wheel, install the wheel in a new venv and play every game from it "
    "(tests/package, marked wheel)",
    "prometheus": "also run the test where a real Prometheus server scrapes `hunters serve` (marked prometheus; "
    "needs Debian's prometheus package)",
    "postgres": "also run the service tests on PostgreSQL, and the replica tests (marked postgres; needs "
    "Debian's postgresql package, the tests start a throwaway cluster)",
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
