"""Suite-wide fixtures."""

import os

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_results_store(tmp_path_factory):
    """Point the results store at a temporary file, so no test writes the user's store.

    Every bench run through the CLI stores its matches (``snakelab.harness.store``);
    subprocesses inherit the variable. Tests that inspect a store set their own path.
    """
    old = os.environ.get("SNAKELAB_STORE")
    os.environ["SNAKELAB_STORE"] = str(tmp_path_factory.mktemp("store") / "results.sqlite")
    yield
    if old is None:
        os.environ.pop("SNAKELAB_STORE", None)
    else:
        os.environ["SNAKELAB_STORE"] = old
