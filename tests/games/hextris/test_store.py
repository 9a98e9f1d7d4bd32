"""The keep-best store re-scored with the official scorer, against the table in the docs."""

import re

from snakelab.games.hextris.codec import load_solutions
from snakelab.games.hextris.scoring import score_problem, score_seed
from snakelab.games.hextris.solver_spec import parse_tag
from snakelab.games.hextris.solver_store import MAX_SECONDS

from .conftest import ROOT

STORE = ROOT / "benchmarks" / "results" / "hextris"
DOC = ROOT / "docs" / "benchmarks.md"


def _doc_table() -> dict[int, tuple[int, int]]:
    """Per problem, the "ours (store)" score and the legacy entries the CPU column names."""
    text = DOC.read_text()
    section = text[text.index("\n## hextris") :]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    head_at = next(i for i, ln in enumerate(lines) if re.match(r"\|\s*problem\s*\|\s*best\s*\|\s*best team", ln))
    head = [c.strip() for c in lines[head_at].strip("|").split("|")]
    col = head.index("ours (store)")
    cpu = next(i for i, h in enumerate(head) if h.startswith("CPU s/seed"))
    out: dict[int, tuple[int, int]] = {}
    for ln in lines[head_at + 2 :]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        if not cells[0].isdigit():
            break
        legacy = re.search(r"\((\d+) legacy\)", cells[cpu])
        out[int(cells[0])] = (int(cells[col].replace(",", "")), int(legacy.group(1)) if legacy else 0)
    return out


def test_store_scores_and_legacy_entries_are_the_docs_table(problems):
    """Every entry's tag records how it was found (spec, CPU seconds within the limit, its
    exact score), except the legacy entries the table counts; each problem's official
    score is the table's."""
    table = _doc_table()
    assert sorted(table) == list(range(25))
    for pid, prob in problems.items():
        entries = load_solutions(STORE / f"problem_{pid}.json")
        assert {e.problem_id for e in entries} == {pid}
        # One entry per listed seed, so the store is a complete submission for the problem.
        assert sorted(e.seed for e in entries) == sorted(set(prob.source_seeds)), pid
        legacy = 0
        for e in entries:
            rec = parse_tag(e.tag)
            score = score_seed(prob, e.seed, e.solution).score
            if rec is None:
                assert e.tag == f"snakelab legacy {score}", (pid, e.seed, e.tag)
                legacy += 1
                continue
            assert rec.seconds <= MAX_SECONDS, (pid, e.seed, rec.seconds)
            assert rec.score == score, (pid, e.seed)
        assert (score_problem(prob, entries).score, legacy) == table[pid], f"problem {pid}: store and docs table differ"
