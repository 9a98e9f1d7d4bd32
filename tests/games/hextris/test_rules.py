"""Rules: spawn, rotation about the pivot, the repeat rule, locking, conformance."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from snakelab import make
from snakelab.core.errors import CodecError, ConfigError, GameOverError, IllegalActionError
from snakelab.core.hexgrid import distance, rotate
from snakelab.games.hextris.codec import load_problem, parse_problem, parse_solutions
from snakelab.games.hextris.rules import Sim, compile_unit, step_placement

from .conftest import PROBLEMS


@pytest.mark.parametrize("pid", range(25))
def test_spawn_positions_match_spec(pid, problems):
    p = problems[pid]
    for k, unit in enumerate(p.units):
        mx = min(x for x, _ in unit.members)
        my = min(y for _, y in unit.members)
        uw = max(x for x, _ in unit.members) - mx + 1
        shift = (p.width - uw) // 2
        want = sorted((x - mx + shift, y - my) for x, y in unit.members)
        sim = Sim(p, p.source_seeds[0])
        sim.sequence = [k]
        sim.pos = sim.shapes[k].spawn
        got = sorted(sim.cells())
        assert got == want, (pid, k)
        # Centred, rounding toward less space on the left.
        left = min(x for x, _ in got)
        right = p.width - 1 - max(x for x, _ in got)
        assert left <= right <= left + 1
        assert min(y for _, y in got) == 0


unit_members = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=6, unique=True)


@settings(max_examples=60)
@given(unit_members, st.tuples(st.integers(-2, 6), st.integers(-2, 6)), st.integers(0, 5), st.integers(-3, 8))
def test_compiled_rotations_turn_about_the_pivot(members, pivot, rot, py):
    shape = compile_unit(members, pivot, 20)
    px = 7
    cells0 = {(px + dx, py + dy) for dx, dy in shape.deltas[0][py & 1]}
    cells = {(px + dx, py + dy) for dx, dy in shape.deltas[rot][py & 1]}
    # Rotation r equals r clockwise turns of rotation 0 about the pivot.
    assert cells == {rotate(c, (px, py), rot) for c in cells0}
    # Distances to the pivot are kept.
    assert sorted(distance(c, (px, py)) for c in cells) == sorted(distance(c, (px, py)) for c in cells0)
    # Six single turns come back to the start.
    r = rot
    for _ in range(6):
        r = step_placement(px, py, r, 4)[2]
    assert r == rot


def test_repeat_rule(problems):
    sim = Sim(problems[6], 0)
    start = sim.pos
    sim.command(1)  # E
    with pytest.raises(IllegalActionError, match="repeat"):
        sim.command(0)  # W goes back
    assert sim.pos == (start[0] + 1, start[1], start[2])
    sim.command(3)  # SE resets the held placements to the new one
    assert len(sim.visited) == 1
    sim.command(0)  # W
    with pytest.raises(IllegalActionError, match="repeat"):
        sim.command(1)  # E back to the placement reached by SE
    assert len(sim.visited) == 2


def test_lock_scores_and_command_after_end(problems):
    sim = Sim(problems[21], 0)
    size = sim.shape.size
    while sim.index == 0:
        sim.command(3 if sim.pos[1] % 2 == 0 else 2)
    assert sim.move_score >= size
    while sim.termination is None:
        sim.command(3 if sim.pos[1] % 2 == 0 else 2)
    with pytest.raises(GameOverError):
        sim.command(0)


def test_state_json_round_trip_and_outcome():
    game = make("hextris(problem=1)")
    s = game.new_state(0)
    for ch in "ei! ei! ":
        if s.is_over():
            break
        s.apply([ch])
    back = game.state_from_json(json.loads(json.dumps(s.to_json())))
    assert back.to_json() == s.to_json()
    assert s.legal_actions() and "d" not in s.legal_actions()  # a one-cell unit cannot turn
    with pytest.raises(IllegalActionError):
        s.apply(["#"])


def test_config_errors():
    with pytest.raises(ConfigError, match="seed_index"):
        make("hextris(problem=0,seed_index=3)")
    with pytest.raises(ConfigError, match="no problem 99"):
        make(f"hextris(problem=99,problems_dir={str(PROBLEMS)!r})")
    with pytest.raises(ConfigError, match="unknown parameter"):
        make("hextris(colour=3)")


@pytest.mark.parametrize(
    ("obj", "needle"),
    [
        ([], "JSON object"),
        ({"id": 1}, "missing field 'width'"),
        ({"id": 1, "width": "10", "height": 5}, "must be an integer"),
        (
            {"id": 1, "width": 5, "height": 5, "units": [{"members": [], "pivot": {"x": 0, "y": 0}}]},
            "no members",
        ),
        (
            {
                "id": 1,
                "width": 5,
                "height": 5,
                "units": [{"members": [{"x": 0, "y": 0}], "pivot": {"x": 0, "y": 0}}],
                "filled": [{"x": 9, "y": 0}],
                "sourceLength": 3,
                "sourceSeeds": [0],
            },
            "off the",
        ),
    ],
)
def test_malformed_problem(obj, needle):
    with pytest.raises(CodecError, match=needle):
        parse_problem(obj, "p.json")


def test_problem_file_errors(tmp_path, problems):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CodecError, match="not valid JSON"):
        load_problem(bad)
    with pytest.raises(CodecError, match="cannot read"):
        load_problem(tmp_path / "missing.json")
    good = tmp_path / "p.json"
    good.write_text(json.dumps(problems[3].to_json()))
    assert load_problem(good) == problems[3]


def test_malformed_solutions():
    with pytest.raises(CodecError, match="entry 0"):
        parse_solutions([{"problemId": 1, "seed": 0}], "s.json")
    with pytest.raises(CodecError, match="JSON list"):
        parse_solutions(3, "s.json")
