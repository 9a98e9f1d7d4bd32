"""Every benchmark script still imports what it uses and parses its options (``--help``).

The scripts are run by hand, not by the suite, so a renamed function in the library
would otherwise surface only on the next benchmark run.
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_benchmark_script_starts(script):
    r = subprocess.run(
        [sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    assert "usage:" in r.stdout
