"""snakelab built as a wheel, installed into a fresh virtualenv, used from an empty folder.

This is what a user who installs the package meets: nothing from the source tree (no data
folder beside it, no ``data/``, no ``tests/``) is on hand. The wheel is built without
network access from a copy of the project's sources (so the tree under test gains no
``build/`` or ``*.egg-info``), installed with ``--no-deps --no-index``, and the
dependencies are borrowed from the running interpreter's environment through a ``.pth``
file rather than downloaded again. A ``.pth`` line only appends a folder to
``sys.path``: the ``.pth`` files inside that folder (such as an editable install of
snakelab itself) are not run, so ``import snakelab`` can only find the wheel's copy,
which the test checks.

Then one real command per game runs in an empty folder, and the folder must hold
exactly the files asked for at the end.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.install, pytest.mark.slow, pytest.mark.xdist_group("install")]

# An arena game short enough for a test: 60 steps on a 20×20 board.
ARENA_CONFIG = "duration 3\ngame_width 20\ngame_height 20\n"


def _run(cmd, *, cwd, env, timeout=300):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


def _build_wheel(tmp: Path) -> Path:
    """Build the wheel from a clean copy of the sources, with the build backend already installed."""
    src = tmp / "src-copy"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "src", src / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    out = tmp / "wheels"
    # --no-build-isolation: use the setuptools of this environment (a dev dependency)
    # instead of downloading one into an isolated build environment.
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q"]
    _run([*cmd, "-w", str(out), str(src)], cwd=tmp, env=dict(os.environ))
    (wheel,) = out.glob("snakelab-*.whl")
    return wheel


def _dependency_paths() -> list[str]:
    """This interpreter's package folders (site-packages and PYTHONPATH), minus snakelab's sources."""
    extra = {Path(p).resolve() for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p}
    keep = []
    for entry in sys.path:
        path = Path(entry or ".").resolve()
        if not path.is_dir() or not ({"site-packages", "dist-packages"} & set(path.parts) or path in extra):
            continue  # the standard library: the fresh virtualenv has its own
        if path in (ROOT, ROOT / "src") or (path / "snakelab" / "__init__.py").is_file():
            continue  # snakelab's sources: this tree (PYTHONPATH=src) or an editable install's
        # (the project's own .venv lies inside ROOT and is kept: it holds the dependencies)
        keep.append(str(path))
    return list(dict.fromkeys(keep))


def _clean_env(tmp: Path) -> dict[str, str]:
    """The environment of a user: no PYTHONPATH, no snakelab settings, a private data folder."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("SNAKELAB_")}
    env["XDG_DATA_HOME"] = str(tmp / "user-data")
    return env


def test_the_installed_wheel_runs_every_game_from_an_empty_folder(tmp_path):
    t0 = time.monotonic()
    wheel = _build_wheel(tmp_path)
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
    assert "snakelab/games/hextris/problems/problem_24.json" in names
    assert "snakelab/games/hextris/problems/SHA256SUMS" in names

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path, env=_clean_env(tmp_path))
    py = venv / "bin" / "python"
    site = Path(
        _run(
            [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            cwd=tmp_path,
            env=_clean_env(tmp_path),
        ).stdout.strip()
    )
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps", "--no-index", "-q"]
    _run([*pip, str(wheel)], cwd=tmp_path, env=_clean_env(tmp_path))
    # Written after the install, so pip cannot take a snakelab seen through it for installed.
    (site / "_snakelab_test_dependencies.pth").write_text("\n".join(_dependency_paths()) + "\n")

    work = tmp_path / "work"
    work.mkdir()
    env = _clean_env(tmp_path)
    where = _run([py, "-c", "import snakelab; print(snakelab.__file__)"], cwd=work, env=env).stdout.strip()
    assert Path(where).is_relative_to(venv), where
    snakelab = str(venv / "bin" / "snakelab")
    arena_config = tmp_path / "arena.txt"
    arena_config.write_text(ARENA_CONFIG)

    bench = _run(
        [snakelab, "classic", "bench", "-a", "greedy", "-n", "2", "-W", "6", "-H", "6", "--json"], cwd=work, env=env
    )
    assert bench.stdout.strip(), bench.stderr
    # The spiral: its kernels compile in half the time of the champion's.
    cover = _run([snakelab, "blind", "cover", "-s", "spiral", "-W", "7", "-H", "5", "--json"], cwd=work, env=env)
    assert json.loads(cover.stdout)["cover"] >= 34  # every one of the 35 cells, the start at move 0
    arena = [snakelab, "arena", "run", "-b", "greedy", "-b", "random", "--no-view", "--seed", "1"]
    _run([*arena, "--config", arena_config, "--replay", "arena.jsonl"], cwd=work, env=env)
    judge = [snakelab, "snakgame", "judge", "--game", "snakgame(type=0,rows=8,cols=9)", "--"]
    judged = _run([*judge, snakelab, "snakgame", "client", "--agent", "greedy"], cwd=work, env=env)
    assert judged.stdout.startswith("OK"), judged.stdout
    _run([snakelab, "hextris", "solve", "1", "--seconds", "1", "-o", "solution.json"], cwd=work, env=env)
    scored = _run([snakelab, "hextris", "score", "solution.json", "--json"], cwd=work, env=env)
    assert json.loads(scored.stdout)[0]["score"] > 0
    verified = _run([snakelab, "replay", "verify", "arena.jsonl"], cwd=work, env=env)
    assert "OK" in verified.stdout

    # Only the files asked for; the results store went to the user's data folder.
    assert sorted(p.name for p in work.iterdir()) == ["arena.jsonl", "solution.json"]
    assert (tmp_path / "user-data" / "snakelab" / "results.sqlite").is_file()
    # Generous: the first run of each game compiles its kernels in the fresh install.
    assert time.monotonic() - t0 < 600
