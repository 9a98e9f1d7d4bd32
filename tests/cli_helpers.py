"""Run the real ``snakelab`` entry point in a subprocess (one-line errors, exit codes).

Output is made plain and wide whatever the terminal the suite runs in: ``COLUMNS=200``
and no colour, so a test can assert on whole lines (``env`` adds or overrides).
"""

import os
import signal
import subprocess
import sys
import time

#: The environment of every snakelab subprocess: a fixed width, no colour.
PLAIN = {"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}


def plain_env(env=None):
    """``os.environ`` with :data:`PLAIN` and then ``env`` over it."""
    return {**os.environ, **PLAIN, **(env or {})}


def run_snakelab(*args, stdin=None, cwd=None, timeout=300, env=None):
    """``snakelab ARGS...`` as the console script runs it; returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-c", "from snakelab.cli import main; main()", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        input=stdin,
        cwd=cwd,
        timeout=timeout,
        env=plain_env(env),
    )


# Python leaves SIGINT ignored when it starts with it ignored, and an ignored or blocked
# SIGINT is inherited through exec; a shell starts every command with SIGINT handled. So
# the command under test restores that first, whatever the test worker's own disposition
# (which libraries used in earlier tests may have changed).
_SIGINT_HANDLED = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
)


def interrupt_snakelab(*args, ready, what, timeout=120):
    """Start ``snakelab ARGS...`` in its own session, wait until ``ready()``, then Ctrl-C it.

    The SIGINT goes to the whole process group, as a terminal's Ctrl-C does. Returns the
    finished process and its standard error; the group is killed if it outlives the test.
    ``what`` names what ``ready`` waits for, for the failure message.
    """
    proc = subprocess.Popen(
        [sys.executable, "-c", _SIGINT_HANDLED + "from snakelab.cli import main; main()", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=plain_env(),
    )
    try:
        deadline = time.monotonic() + timeout
        while not ready():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, f"{what} not within {timeout} s"
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc, err
