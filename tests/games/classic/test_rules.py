import pytest

from snakelab import make
from snakelab.core.errors import GameOverError, IllegalActionError
from snakelab.core.grid import Direction
from snakelab.games.classic.rules import Termination

U, D, L, R = Direction


def _state(game="classic(width=5,height=4,start_length=3,start_x=2,start_y=1)", seed=0):
    return make(game).new_state(seed)


def test_start__straight_line_head_first():
    s = _state()
    g = s.grid
    assert s.head == g.index(2, 1) and len(s.body) == 3
    assert s.apple >= 0 and not s.occ[s.apple]
    assert all(g.manhattan(a, b) == 1 for a, b in zip(s.body, list(s.body)[1:], strict=False))
    # The heading points from the neck to the head.
    assert g.step(s.body[-2], s.heading) == s.head


def test_reversal_is_illegal_and_leaves_state_unchanged():
    s = _state()
    back = Direction(s.heading).opposite
    assert back not in s.legal_actions()
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="reverses"):
        s.apply((back,))
    with pytest.raises(IllegalActionError, match="not a direction"):
        s.apply(("north",))
    assert s.to_json() == before


def test_wall_death():
    s = make("classic(width=3,height=3,start_x=0,start_y=0)").new_state(0)
    s.apple = 8  # keep the apple out of the way
    ev = s.apply((L,))
    assert s.is_over() and s.termination is Termination.WALL and ev[0].kind == "death"
    with pytest.raises(GameOverError):
        s.apply((R,))


def _snake(rule):
    """A length-4 snake in a 2×2 loop: head (0,0) tail (0,1), tail next to the head."""
    s = make(f"classic(width=4,height=4,tail_rule={rule})").new_state(0)
    g = s.grid
    from collections import deque

    cells = [g.index(0, 1), g.index(1, 1), g.index(1, 0), g.index(0, 0)]  # tail ... head
    s.body = deque(cells)
    s.occ = bytearray(g.size)
    for c in cells:
        s.occ[c] = 1
    s.head, s.heading, s.apple = cells[-1], int(L), g.index(3, 3)
    return s


def test_tail_rule__lenient_allows_entering_leaving_tail():
    s = _snake("lenient")
    s.apply((D,))
    assert not s.is_over() and s.head == s.grid.index(0, 1)


def test_tail_rule__strict_kills():
    s = _snake("strict")
    s.apply((D,))
    assert s.termination is Termination.TAIL


def test_eating_grows_by_one_and_places_a_new_apple():
    s = make("classic(width=4,height=4,start_x=0,start_y=0)").new_state(0)
    s.apple = s.grid.index(1, 0)
    ev = s.apply((R,))
    assert len(s.body) == 2 and s.apples == 1 and ev[0].kind == "apple"
    assert s.apple >= 0 and not s.occ[s.apple]


def test_stall_limit():
    s = make("classic(width=4,height=4,stall_limit=3,start_x=0,start_y=0)").new_state(0)
    s.apple = s.grid.index(3, 3)
    for d in (R, D, L):
        s.apply((d,))
    assert s.termination is Termination.STALLED


def test_seed_reproduces_apples():
    a, b = make("classic").new_state(42), make("classic").new_state(42)
    assert a.to_json() == b.to_json()
    assert make("classic").new_state(43).to_json() != a.to_json()
