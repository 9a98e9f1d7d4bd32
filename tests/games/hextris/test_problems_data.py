"""The 25 qualifier problems ship inside the package, byte-for-byte the organisers' files."""

import hashlib
from pathlib import Path

import pytest

import snakelab
from snakelab.core.errors import CodecError
from snakelab.games.hextris.codec import ENV_PROBLEMS, find_problems_dir, load_problem_id


def test_shipped_problems_match_their_checksums():
    d = find_problems_dir()
    sums = {}
    for line in (d / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        sums[name.lstrip("*")] = digest
    assert sorted(sums) == sorted(f"problem_{i}.json" for i in range(25))
    for name, digest in sums.items():
        assert hashlib.sha256((d / name).read_bytes()).hexdigest() == digest, name


def test_problems_are_found_inside_the_package_whatever_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_PROBLEMS, raising=False)
    monkeypatch.chdir(tmp_path)
    d = find_problems_dir()
    assert Path(snakelab.__file__).parent in d.parents
    assert load_problem_id(24).id == 24


def test_the_environment_variable_overrides_the_shipped_problems(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_PROBLEMS, str(tmp_path))
    assert find_problems_dir() == tmp_path
    with pytest.raises(CodecError, match="no problem 3"):
        load_problem_id(3)
