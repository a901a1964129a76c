"""One local Ray cluster per session (2 CPUs, no dashboard, its files in a temp dir), started by this
process: the tests run units on it from here, and drivers in subprocesses join it by its address.
Without the ray package the tests skip, saying why, unless HUNTERS_REQUIRE_RAY=1 (CI)."""

import importlib
import os
import shutil
import tempfile

import pytest


@pytest.fixture(scope="session")
def ray_address():
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        reason = "the ray package is not installed (pip install '.[ray]')"
        if os.environ.get("HUNTERS_REQUIRE_RAY") == "1":
            pytest.fail(f"HUNTERS_REQUIRE_RAY=1 but {reason}")
        pytest.skip(reason)
    temp = tempfile.mkdtemp(prefix="hray")  # short: Ray's socket paths live under it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)
