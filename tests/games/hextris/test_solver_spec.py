"""Recorded solver specs, their tags, the deterministic solve and the keep-best store rules."""

import json

import pytest

from snakelab.core.errors import ConfigError
from snakelab.games.hextris.codec import SolutionEntry, format_solutions
from snakelab.games.hextris.scoring import score_seed
from snakelab.games.hextris.solver_spec import Recorded, SolverSpec, parse_tag, solve_spec
from snakelab.games.hextris.solver_store import MAX_SECONDS, StoredEntry, load_store, offer, save_store


def test_spec_text_names_every_parameter_and_parses_back():
    spec = SolverSpec.parse("champion(width=4,random=3)")
    assert spec == SolverSpec("champion", 4, 3, 8, 0, 0, 0, 0, 1, 0)
    text = spec.text()
    assert text == "champion(width=4,random=3,rwidth=8,rseed=0,tries=0,opening=0,single=0,variants=1,guard=0)"
    assert SolverSpec.parse(text) == spec
    assert SolverSpec.parse("seed") == SolverSpec(method="seed")
    assert SolverSpec.parse("seed").text() == "seed"


def test_resolved_fixes_the_phrase_orders_by_board_size(problems):
    spec = SolverSpec.parse("champion")
    assert spec.resolved(problems[3]).tries == 3  # 30 x 20 board
    assert spec.resolved(problems[24]).tries == 1  # 100 x 40 board
    assert SolverSpec.parse("champion(tries=2)").resolved(problems[24]).tries == 2


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("champion(widht=2)", "unknown champion parameter 'widht'"),
        ("champion(width=0)", "width must be an integer >= 1"),
        ("champion(random=-1)", "random must be an integer >= 0"),
        ("champion(width=2.5)", "width must be an integer"),
        ("champion(width=true)", "width must be an integer"),
        ("greedy(width=2)", "unknown hextris solver 'greedy'"),
        ("seed(width=2)", "the seed solver takes no parameters"),
        ("champion(width=99999)", "above 4096"),
        ("champion(", "cannot read"),
    ],
)
def test_bad_specs_are_refused_with_a_reason(text, words):
    with pytest.raises(ConfigError, match=words.replace("(", r"\(")):
        SolverSpec.parse(text)


def test_tag_round_trip_and_legacy_tags():
    rec = Recorded(SolverSpec.parse("champion(width=2,random=5,tries=3)"), 12.345, 7534)
    tag = rec.tag()
    spec_text = "champion(width=2,random=5,rwidth=8,rseed=0,tries=3,opening=0,single=0,variants=1,guard=0)"
    assert tag == f"snakelab {spec_text} 12.3s 7534"
    back = parse_tag(tag)
    assert back is not None and back.spec == rec.spec and back.score == 7534 and back.seconds == 12.3
    for legacy in (None, "", "snakelab best 229722", "snakelab legacy 5", "snakelab champion(wid=2) 1.0s 5"):
        assert parse_tag(legacy) is None


def test_solve_spec_is_deterministic_and_records_its_cost(problems):
    prob = problems[21]  # 20 units on a 10 x 8 board: quick
    spec = SolverSpec.parse("champion(width=4,random=3)")
    sol1, rec1 = solve_spec(prob, prob.source_seeds[0], spec)
    sol2, rec2 = solve_spec(prob, prob.source_seeds[0], spec)
    assert sol1.solution == sol2.solution
    assert rec1.score == sol1.score == score_seed(prob, prob.source_seeds[0], sol1.solution).score > 0
    assert rec1.spec.tries == 3  # resolved for the board
    assert rec1.seconds >= 0 and rec2.seconds >= 0
    # Another random seed draws other weights but is just as reproducible.
    other, _ = solve_spec(prob, prob.source_seeds[0], SolverSpec.parse("champion(width=4,random=3,rseed=7)"))
    again, _ = solve_spec(prob, prob.source_seeds[0], SolverSpec.parse("champion(width=4,random=3,rseed=7)"))
    assert other.solution == again.solution


def _entry(score, solution="", spec="champion(width=1)", seconds=1.0):
    rec = None if spec is None else Recorded(SolverSpec.parse(spec), seconds, score)
    return StoredEntry(score, solution, rec)


def test_offer_keeps_the_best_and_prefers_recorded_entries():
    best: dict[int, StoredEntry] = {}
    assert offer(best, 0, _entry(10, "a", spec=None))
    assert not offer(best, 0, _entry(9, "b"))  # worse, even though recorded
    assert offer(best, 0, _entry(10, "c"))  # as good, replaces a legacy entry
    assert best[0].solution == "c"
    assert not offer(best, 0, _entry(10, "d"))  # as good as a recorded one: kept
    assert not offer(best, 0, _entry(10, "e", spec=None))
    assert not offer(best, 0, _entry(99, "f", seconds=MAX_SECONDS + 1))  # too slow to store
    assert offer(best, 0, _entry(11, "g", seconds=MAX_SECONDS))
    assert best[0].solution == "g"


def test_store_rescores_on_load_and_writes_valid_solution_files(tmp_path, problems):
    prob = problems[21]
    seed = prob.source_seeds[0]
    sol, rec = solve_spec(prob, seed, SolverSpec.parse("champion(width=2)"))
    # A tag claiming a higher score is not trusted: the official scorer decides.
    lying = Recorded(rec.spec, rec.seconds, rec.score + 1000)
    (tmp_path / "problem_21.json").write_text(format_solutions([SolutionEntry(21, seed, sol.solution, lying.tag())]))
    best = load_store(prob, tmp_path)
    assert best[seed].score == rec.score
    save_store(prob, tmp_path, best)
    written = json.loads((tmp_path / "problem_21.json").read_text())
    assert written == [{"problemId": 21, "seed": seed, "tag": rec.tag(), "solution": sol.solution}]
    assert not list(tmp_path.glob("*.tmp"))


def test_an_opening_spells_phrases_across_locks_and_the_rest_continues_the_same_game(problems):
    from snakelab.games.hextris.scoring import PHRASES
    from snakelab.games.hextris.solver import CHAMPION_WEIGHTS
    from snakelab.games.hextris.solver_opening import lcg_state, play_opening, rest_problem

    prob = problems[20]  # 15 x 15: the width-1 pass leaves several phrases out
    seed = prob.source_seeds[0]
    long_ones = [p for p in PHRASES if len(p) > 40]
    opening = play_opening(prob, seed, long_ones, CHAMPION_WEIGHTS, 2)
    assert set(opening.spelled) == set(long_ones)
    assert opening.sim.index >= 2  # 28+ down moves do not fit in one unit's fall on 15 rows
    res = score_seed(prob, seed, opening.text)
    assert not res.error and all(res.reps.get(p) for p in long_ones)
    rest, rest_seed = rest_problem(prob, seed, opening)
    assert rest_seed == lcg_state(seed, opening.sim.index)
    from snakelab.games.hextris.rules import unit_sequence

    assert unit_sequence(rest, rest_seed) == unit_sequence(prob, seed)[opening.sim.index :]
    # The spec with an opening: a valid string, all of it scored officially.
    sol, rec = solve_spec(prob, seed, SolverSpec.parse("champion(width=2,opening=18)"))
    full = score_seed(prob, seed, sol.solution)
    assert not full.error and full.score == rec.score
    probe, _ = solve_spec(prob, seed, SolverSpec.parse("champion(width=1)"))
    assert rec.score >= probe.score


def test_replace_legacy_lets_a_recorded_entry_take_a_better_legacy_place():
    best = {0: _entry(10, "a", spec=None)}
    assert not offer(best, 0, _entry(8, "b"))
    assert offer(best, 0, _entry(8, "b"), replace_legacy=True)
    assert not offer(best, 0, _entry(7, "c"), replace_legacy=True)  # recorded entries only improve
    assert best[0].solution == "b"


def test_the_single_clear_penalty_applies_to_one_row_clears_only():
    import numpy as np

    from snakelab.games.hextris import kernels as kn
    from snakelab.games.hextris.codec import Problem, Unit
    from snakelab.games.hextris.search import prepare
    from snakelab.games.hextris.solver import CHAMPION_WEIGHTS

    # A 4-wide, 6-row board whose bottom row lacks one cell: a one-cell unit can fill it.
    prob = Problem(-1, 4, 6, (Unit(((0, 0),), (0, 0)),), ((0, 5), (1, 5), (2, 5)), 5, (0,))
    prep = prepare(prob)
    board = prep.board.copy()
    px, py, rot = prep.shapes[0].spawn
    _p, _c, locks, _cmd, n = kn.bfs_locks(board, prep.dl[0], 1, prep.canon[0], px, py, rot, prep.e)
    rows = kn.board_rows(board, CHAMPION_WEIGHTS)
    no_next = np.zeros((0, 2), np.int64)
    plain, lss = kn.evaluate_locks(board, rows, prep.dl[0], 1, locks, n, prep.e, CHAMPION_WEIGHTS, no_next, 0)
    with_pen = np.append(CHAMPION_WEIGHTS, 250.0)
    pen, lss2 = kn.evaluate_locks(board, rows, prep.dl[0], 1, locks, n, prep.e, with_pen, no_next, 0)
    assert (lss == lss2).all() and (lss == 1).sum() == 1 and (lss == 0).sum() > 0
    assert np.allclose(plain - pen, np.where(lss == 1, 250.0, 0.0))
    spec = SolverSpec.parse("champion(width=2,single=250)")
    assert spec.single == 250 and "single=250" in spec.text()


def test_a_plan_counts_the_rows_its_units_fall_as_the_spelled_string_descends(problems):
    from snakelab.games.hextris.embedding import embed
    from snakelab.games.hextris.rules import CHAR_TO_COMMAND, Sim
    from snakelab.games.hextris.scoring import PHRASES
    from snakelab.games.hextris.search import beam_plan, prepare
    from snakelab.games.hextris.solver import CHAMPION_WEIGHTS

    prob = problems[16]
    seed = prob.source_seeds[0]
    prep = prepare(prob)
    plan = beam_plan(prep, seed, 2, CHAMPION_WEIGHTS)
    text = embed(prep, seed, plan, PHRASES, overlaps=True)
    sim = Sim(prob, seed)
    moved_down = 0
    for ch in text:
        cmd = CHAR_TO_COMMAND[ch.lower()]
        unit = sim.index
        sim.command(cmd)
        moved_down += cmd in (2, 3) and sim.index == unit
    assert plan.falls == moved_down > len(plan.targets)
