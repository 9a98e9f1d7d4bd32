import pytest

from snakelab import make, make_agent
from snakelab.core.errors import ConfigError, GameOverError, IllegalActionError
from snakelab.core.grid import Direction
from snakelab.games.blind.evaluate import reference_cover
from snakelab.games.blind.rules import Termination
from snakelab.games.blind.strategies import make_strategy
from snakelab.harness.match import play

U, D, L, R = Direction


def test_moves_wrap_and_apple_found():
    s = make("blind(width=3,height=2,start_x=0,start_y=0,apple_x=2,apple_y=1)").new_state(0)
    assert s.observe(0) is None and len(s.legal_actions()) == 4
    s.apply((L,))
    assert (s.x, s.y) == (2, 0) and not s.is_over()
    ev = s.apply((U,))
    assert (s.x, s.y) == (2, 1) and s.is_over() and ev[0].kind == "found"
    out = s.outcome()
    assert out.winner == 0 and out.details == {"found": True, "steps": 2, "area": 6, "ratio": 2 / 6}
    with pytest.raises(GameOverError):
        s.apply((R,))


def test_illegal_action_leaves_state_unchanged():
    s = make("blind(width=4,height=4)").new_state(1)
    before = s.to_json()
    with pytest.raises(IllegalActionError, match="not a direction"):
        s.apply(("north",))
    assert s.to_json() == before


def test_max_steps_ends_the_game():
    s = make("blind(width=4,height=4,start_x=0,start_y=0,apple_x=0,apple_y=2,max_steps=3)").new_state(0)
    for _ in range(3):
        s.apply((R,))
    assert s.termination is Termination.MAX_STEPS and s.outcome().winner is None


def test_random_start_never_on_the_apple():
    game = make("blind(width=2,height=1)")
    for seed in range(30):
        s = game.new_state(seed)
        assert (s.x, s.y) != (s.apple_x, s.apple_y)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"width": 0, "height": 5}, "0×5"),
        ({"width": 1, "height": 1}, "1×1"),
        ({"width": 3, "height": 3, "start_x": 1}, "start_x and start_y"),
        ({"width": 3, "height": 3, "apple_x": 5, "apple_y": 0}, "off the"),
        ({"width": 3, "height": 3, "start_x": 1, "start_y": 1, "apple_x": 1, "apple_y": 1}, "cannot start"),
    ],
)
def test_bad_config(kwargs, needle):
    with pytest.raises(ConfigError, match=needle):
        make("blind", **kwargs)


@pytest.mark.parametrize("agent", ["blind.spiral", "blind.dynamic-zigzag(k=3)", "blind.champion"])
def test_agents_play_through_the_match_loop_within_the_cover_time(agent):
    """Whatever the start and apple, the apple is found by the strategy's cover time."""
    spec = agent.split(".", 1)[1]
    width, height = 6, 4
    cover = reference_cover(make_strategy(spec).moves(), width, height, cap=10_000)
    assert cover > 0
    game = make(f"blind(width={width},height={height})")
    for seed in range(12):
        res = play(game, [make_agent(agent)], seed)
        assert res.outcome.details["found"] and 1 <= res.steps <= cover


def test_agent_emits_the_strategy_moves():
    agent = make_agent("blind.dynamic-zigzag(k=11)")
    game = make("blind(width=50,height=50)")
    agent.reset(game.info, 0, 0)
    got = "".join(agent.act(None, None).name[0] for _ in range(40))
    assert got == "RRDRDRDRDRDRDRRDRDRDRDRDRDRDRDRDRDRDRDRR"
