"""Run the real ``snakelab`` entry point in a subprocess (one-line errors, exit codes)."""

import subprocess
import sys


def run_snakelab(*args, stdin=None, cwd=None, timeout=300):
    """``snakelab ARGS...`` as the console script runs it; returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-c", "from snakelab.cli import main; main()", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        input=stdin,
        cwd=cwd,
        timeout=timeout,
    )
