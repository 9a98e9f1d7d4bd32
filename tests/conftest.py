"""Suite-wide settings: a fixed terminal, and no test touching the user's own files.

Set when this file is imported, before any test imports ``snakelab.cli`` (whose rich
consoles read the environment once, when they are made), and inherited by every
subprocess a test starts:

* a wide, colourless, dumb terminal (``COLUMNS=200``, ``NO_COLOR``, ``TERM=dumb``, and
  none of the variables that make rich draw live), so no output depends on the width,
  colour setting or terminal of whoever runs the suite — a narrow ``COLUMNS`` would wrap
  one-line messages, and a live progress bar would redraw over them;
* the user's data folder (where the results store lives by default) and the store
  itself inside a temporary folder, so no test writes the real ones.
"""

import os
import tempfile
from pathlib import Path

import pytest

_FIXED_TERMINAL = {"COLUMNS": "200", "LINES": "50", "NO_COLOR": "1", "TERM": "dumb"}
_LIVE_TERMINAL = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE", "PY_COLORS")

os.environ.update(_FIXED_TERMINAL)
for _name in _LIVE_TERMINAL:
    os.environ.pop(_name, None)

# One folder per test process (xdist workers included), removed when the process exits.
_HOME = tempfile.TemporaryDirectory(prefix="snakelab-tests-")
os.environ["XDG_DATA_HOME"] = str(Path(_HOME.name) / "data")
os.environ["SNAKELAB_STORE"] = str(Path(_HOME.name) / "results.sqlite")


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
