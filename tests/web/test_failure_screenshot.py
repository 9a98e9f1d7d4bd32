"""A failing browser test leaves a screenshot: run one in a child pytest and look."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]

# The child reuses the real fixtures and hook, with a bare server (no replays to write).
CHILD_CONFTEST = """
import pytest
from snakelab.web import create_app
from tests.web.conftest import *  # noqa: F403
from tests.web.conftest import LiveServer


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    with LiveServer(create_app(tmp_path_factory.mktemp("replays"))) as srv:
        yield srv
"""

FAILING = """
def test_fails_on_purpose(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.title() == "not the title"
"""


def test_failing_browser_test_saves_a_screenshot(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CHILD_CONFTEST)
    (tmp_path / "test_child.py").write_text(FAILING)
    artifacts = tmp_path / "artifacts"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
        "SNAKELAB_TEST_ARTIFACTS": str(artifacts),
    }
    plugins = ["-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:hypothesispytest"]
    args = [sys.executable, "-m", "pytest", "-q", *plugins, "--rootdir", str(tmp_path)]
    proc = subprocess.run(
        [*args, str(tmp_path / "test_child.py")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 failed" in proc.stdout
    shots = list(artifacts.glob("*.png"))
    assert [p.name for p in shots] == ["test_child.py_test_fails_on_purpose.png"]
    assert shots[0].read_bytes().startswith(b"\x89PNG")
    assert shots[0].stat().st_size > 5000  # a real page, not an empty image
